#include "CICU.h"
#include "Library.h"

#include <pthread.h>

// UTS #46 processors for the process: ICU's are immutable once made, so any thread may use them.
// `processor` is the e-mail rule's (§13); `strict_processor` adds RFC 5892's CONTEXTO rules, for
// IDNA2008 host names (JSON Schema's idn-hostname).
static const UIDNA *processor = NULL;
static const UIDNA *strict_processor = NULL;
static pthread_once_t processor_once = PTHREAD_ONCE_INIT;
static pthread_once_t strict_once = PTHREAD_ONCE_INIT;

static const UIDNA *open_with(uint32_t options) {
    const signup_icu_functions *icu = signup_icu();
    if (icu == NULL) return NULL;
    UErrorCode error = U_ZERO_ERROR;
    UIDNA *made = icu->idna_open_uts46(options, &error);
    return U_SUCCESS(error) ? made : NULL;
}

static void open_processor(void) {
    processor = open_with(UIDNA_NONTRANSITIONAL_TO_ASCII | UIDNA_USE_STD3_RULES | UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ);
}

static void open_strict_processor(void) {
    strict_processor = open_with(
        UIDNA_NONTRANSITIONAL_TO_ASCII | UIDNA_USE_STD3_RULES | UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ | UIDNA_CHECK_CONTEXTO);
}

// The name in ASCII through `with`: its length, -1 when the name is not valid, -2 without ICU.
static int32_t to_ascii(const UIDNA *with, const uint8_t *name, int32_t length, uint8_t *ascii, int32_t capacity) {
    if (with == NULL) return -2;
    UErrorCode error = U_ZERO_ERROR;
    UIDNAInfo info = UIDNA_INFO_INITIALIZER;
    int32_t written = signup_icu()->idna_name_to_ascii_utf8(with, (const char *)name, length, (char *)ascii, capacity, &info, &error);
    if (U_FAILURE(error) || info.errors != 0 || written > capacity) return -1;
    return written;
}

int32_t signup_domain_to_ascii(const uint8_t *domain, int32_t length, uint8_t *ascii, int32_t capacity) {
    pthread_once(&processor_once, open_processor);
    return to_ascii(processor, domain, length, ascii, capacity);
}

int32_t signup_hostname_to_ascii_strict(const uint8_t *name, int32_t length, uint8_t *ascii, int32_t capacity) {
    pthread_once(&strict_once, open_strict_processor);
    return to_ascii(strict_processor, name, length, ascii, capacity);
}

#include "CICU.h"
#include "Library.h"

#include <pthread.h>

// One UTS #46 processor for the process: ICU's is immutable once made, so any thread may use it.
static const UIDNA *processor = NULL;
static pthread_once_t processor_once = PTHREAD_ONCE_INIT;

static void open_processor(void) {
    const signup_icu_functions *icu = signup_icu();
    if (icu == NULL) return;
    UErrorCode error = U_ZERO_ERROR;
    UIDNA *made = icu->idna_open_uts46(
        UIDNA_NONTRANSITIONAL_TO_ASCII | UIDNA_USE_STD3_RULES | UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ, &error);
    if (U_SUCCESS(error)) processor = made;
}

int32_t signup_domain_to_ascii(const uint8_t *domain, int32_t length, uint8_t *ascii, int32_t capacity) {
    pthread_once(&processor_once, open_processor);
    if (processor == NULL) return -2;
    UErrorCode error = U_ZERO_ERROR;
    UIDNAInfo info = UIDNA_INFO_INITIALIZER;
    int32_t written = signup_icu()->idna_name_to_ascii_utf8(
        processor, (const char *)domain, length, (char *)ascii, capacity, &info, &error);
    if (U_FAILURE(error) || info.errors != 0 || written > capacity) return -1;
    return written;
}

// A second processor for IDNA2008 host names (JSON Schema's idn-hostname): the same checks, and
// RFC 5892's CONTEXTO rules too (middle dot, Greek keraia, Hebrew geresh, katakana middle dot).
static const UIDNA *strict_processor = NULL;
static pthread_once_t strict_once = PTHREAD_ONCE_INIT;

static void open_strict_processor(void) {
    const signup_icu_functions *icu = signup_icu();
    if (icu == NULL) return;
    UErrorCode error = U_ZERO_ERROR;
    UIDNA *made = icu->idna_open_uts46(
        UIDNA_NONTRANSITIONAL_TO_ASCII | UIDNA_USE_STD3_RULES | UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ | UIDNA_CHECK_CONTEXTO, &error);
    if (U_SUCCESS(error)) strict_processor = made;
}

int32_t signup_hostname_to_ascii_strict(const uint8_t *name, int32_t length, uint8_t *ascii, int32_t capacity) {
    pthread_once(&strict_once, open_strict_processor);
    if (strict_processor == NULL) return -2;
    UErrorCode error = U_ZERO_ERROR;
    UIDNAInfo info = UIDNA_INFO_INITIALIZER;
    int32_t written = signup_icu()->idna_name_to_ascii_utf8(
        strict_processor, (const char *)name, length, (char *)ascii, capacity, &info, &error);
    if (U_FAILURE(error) || info.errors != 0 || written > capacity) return -1;
    return written;
}

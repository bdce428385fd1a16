#include "CICU.h"

#include "Library.h"

#include <stdlib.h>

// `text` in the normal form of the normaliser `instance` of `icu` gives, as signup_nfkc says.
static int32_t normalized_by(const signup_icu_functions *icu, const UNormalizer2 *(*instance)(UErrorCode *),
                             const uint8_t *text, int32_t length, uint8_t **normalized) {
    *normalized = NULL;
    if (length < 0 || length == INT32_MAX) return -1;
    UErrorCode status = U_ZERO_ERROR;
    const UNormalizer2 *normalizer = instance(&status);
    if (U_FAILURE(status)) return -1;
    // UTF-16 never needs more units than UTF-8 has bytes.
    UChar *units = malloc(sizeof(UChar) * ((size_t)length + 1));
    if (units == NULL) return -1;
    int32_t count = 0;
    icu->from_utf8(units, length + 1, &count, (const char *)text, length, &status);
    int32_t result = -1;
    UChar *normal = NULL;
    if (U_FAILURE(status)) goto done;
    if (icu->span_quick_check_yes(normalizer, units, count, &status) == count && U_SUCCESS(status)) {
        result = 0;
        goto done;
    }
    // One pass with room for the usual case; a second with the exact size when it expands more.
    status = U_ZERO_ERROR;
    int32_t capacity = count < (INT32_MAX - 16) / 2 ? count * 2 + 16 : INT32_MAX;
    for (int attempt = 0; attempt < 2; attempt++) {
        normal = malloc(sizeof(UChar) * (size_t)capacity);
        if (normal == NULL) goto done;
        int32_t needed = icu->normalize(normalizer, units, count, normal, capacity, &status);
        if (status == U_BUFFER_OVERFLOW_ERROR && attempt == 0) {
            free(normal);
            normal = NULL;
            status = U_ZERO_ERROR;
            capacity = needed;
            continue;
        }
        if (U_FAILURE(status)) goto done;
        count = needed;
        break;
    }
    if (normal == NULL) goto done;
    // A UTF-16 unit becomes at most three bytes of UTF-8.
    if (count > (INT32_MAX - 1) / 3) goto done;
    uint8_t *bytes = malloc((size_t)count * 3 + 1);
    if (bytes == NULL) goto done;
    int32_t written = 0;
    icu->to_utf8((char *)bytes, count * 3 + 1, &written, normal, count, &status);
    if (U_FAILURE(status)) {
        free(bytes);
        goto done;
    }
    *normalized = bytes;
    result = written;
done:
    free(units);
    free(normal);
    return result;
}

int32_t signup_nfkc(const uint8_t *text, int32_t length, uint8_t **normalized) {
    *normalized = NULL;
    const signup_icu_functions *icu = signup_icu();
    return icu == NULL ? -1 : normalized_by(icu, icu->nfkc_instance, text, length, normalized);
}

int32_t signup_nfc(const uint8_t *text, int32_t length, uint8_t **normalized) {
    *normalized = NULL;
    const signup_icu_functions *icu = signup_icu();
    return icu == NULL ? -1 : normalized_by(icu, icu->nfc_instance, text, length, normalized);
}

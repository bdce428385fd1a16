#include "CICU.h"
#include "Library.h"

#include <pthread.h>
#include <stdlib.h>

// One checker per restriction level, made once: ICU's checkers may check from any number of
// threads once configured. Index 0 is the one that gives skeletons.
static USpoofChecker *checkers[6];
static pthread_once_t checkers_once = PTHREAD_ONCE_INIT;

static void open_checkers(void) {
    const signup_icu_functions *icu = signup_icu();
    if (icu == NULL) return;
    static const URestrictionLevel levels[6] = {
        USPOOF_HIGHLY_RESTRICTIVE, USPOOF_ASCII, USPOOF_SINGLE_SCRIPT_RESTRICTIVE, USPOOF_HIGHLY_RESTRICTIVE,
        USPOOF_MODERATELY_RESTRICTIVE, USPOOF_MINIMALLY_RESTRICTIVE,
    };
    for (int index = 0; index < 6; index++) {
        UErrorCode error = U_ZERO_ERROR;
        USpoofChecker *checker = icu->spoof_open(&error);
        if (U_FAILURE(error)) return;
        icu->spoof_set_checks(checker, USPOOF_RESTRICTION_LEVEL | USPOOF_INVISIBLE, &error);
        icu->spoof_set_restriction_level(checker, levels[index]);
        if (U_FAILURE(error)) return;
        checkers[index] = checker;
    }
}

static const USpoofChecker *checker(int index) {
    pthread_once(&checkers_once, open_checkers);
    return index >= 0 && index < 6 ? checkers[index] : NULL;
}

int signup_restriction_checker_is_ready(signup_restriction_level level) {
    return checker((int)level) != NULL;
}

int signup_exceeds_restriction_level(const uint8_t *text, int32_t length, signup_restriction_level level) {
    const USpoofChecker *made = checker((int)level);
    if (made == NULL || length < 0) return -1;
    UErrorCode error = U_ZERO_ERROR;
    int32_t failed = signup_icu()->spoof_check2_utf8(made, (const char *)text, length, NULL, &error);
    if (U_FAILURE(error)) return -1;
    return failed != 0 ? 1 : 0;
}

int32_t signup_confusable_skeleton(const uint8_t *text, int32_t length, uint8_t **skeleton) {
    *skeleton = NULL;
    const USpoofChecker *made = checker(0);
    if (made == NULL || length < 0) return -1;
    // Skeletons of usual names are about as long as the names; a second pass takes the exact size.
    int32_t capacity = length < INT32_MAX / 2 - 16 ? length * 2 + 16 : INT32_MAX;
    for (int attempt = 0; attempt < 2; attempt++) {
        char *buffer = malloc((size_t)capacity + 1);
        if (buffer == NULL) return -1;
        UErrorCode error = U_ZERO_ERROR;
        int32_t needed = signup_icu()->spoof_get_skeleton_utf8(made, 0, (const char *)text, length, buffer, capacity + 1, &error);
        if (error == U_BUFFER_OVERFLOW_ERROR && attempt == 0 && needed < INT32_MAX) {
            free(buffer);
            capacity = needed;
            continue;
        }
        if (U_FAILURE(error)) {
            free(buffer);
            return -1;
        }
        *skeleton = (uint8_t *)buffer;
        return needed;
    }
    return -1;
}

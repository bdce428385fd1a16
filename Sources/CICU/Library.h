#ifndef SIGNUP_CICU_LIBRARY_H
#define SIGNUP_CICU_LIBRARY_H

#include <unicode/uregex.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>
#include <unicode/uidna.h>
#include <unicode/uspoof.h>

/// The ICU functions the shim calls, looked up once in Debian's libicu.
typedef struct {
    URegularExpression *(*regex_open)(const UChar *, int32_t, uint32_t, UParseError *, UErrorCode *);
    void (*regex_close)(URegularExpression *);
    void (*regex_set_text)(URegularExpression *, const UChar *, int32_t, UErrorCode *);
    UBool (*regex_matches)(URegularExpression *, int32_t, UErrorCode *);
    UBool (*regex_find)(URegularExpression *, int32_t, UErrorCode *);
    void (*regex_set_match_callback)(URegularExpression *, URegexMatchCallback *, const void *, UErrorCode *);
    const UNormalizer2 *(*nfkc_instance)(UErrorCode *);
    const UNormalizer2 *(*nfc_instance)(UErrorCode *);
    int32_t (*span_quick_check_yes)(const UNormalizer2 *, const UChar *, int32_t, UErrorCode *);
    int32_t (*normalize)(const UNormalizer2 *, const UChar *, int32_t, UChar *, int32_t, UErrorCode *);
    UChar *(*from_utf8)(UChar *, int32_t, int32_t *, const char *, int32_t, UErrorCode *);
    char *(*to_utf8)(char *, int32_t, int32_t *, const UChar *, int32_t, UErrorCode *);
    UIDNA *(*idna_open_uts46)(uint32_t, UErrorCode *);
    int32_t (*idna_name_to_ascii_utf8)(const UIDNA *, const char *, int32_t, char *, int32_t, UIDNAInfo *, UErrorCode *);
    USpoofChecker *(*spoof_open)(UErrorCode *);
    void (*spoof_set_checks)(USpoofChecker *, int32_t, UErrorCode *);
    void (*spoof_set_restriction_level)(USpoofChecker *, URestrictionLevel);
    int32_t (*spoof_check2_utf8)(const USpoofChecker *, const char *, int32_t, USpoofCheckResult *, UErrorCode *);
    int32_t (*spoof_get_skeleton_utf8)(const USpoofChecker *, uint32_t, const char *, int32_t, char *, int32_t, UErrorCode *);
} signup_icu_functions;

/// The functions, all of them found, or NULL when ICU cannot be loaded.
const signup_icu_functions *signup_icu(void);

#endif

#include "CICURegex.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <unicode/uregex.h>

// The header renames each function with the library's version (uregex_open → uregex_open_72);
// stringifying the renamed name gives the symbol to look up.
#define SIGNUP_NAME(x) #x
#define SIGNUP_SYMBOL(x) SIGNUP_NAME(x)
#define SIGNUP_LIBRARY_NAME(major) "libicui18n.so." SIGNUP_NAME(major)

static struct {
    URegularExpression *(*open)(const UChar *, int32_t, uint32_t, UParseError *, UErrorCode *);
    void (*close)(URegularExpression *);
    void (*set_text)(URegularExpression *, const UChar *, int32_t, UErrorCode *);
    UBool (*matches)(URegularExpression *, int32_t, UErrorCode *);
    void (*set_match_callback)(URegularExpression *, URegexMatchCallback *, const void *, UErrorCode *);
} icu;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded = 0;

static void load(void) {
    void *library = dlopen(SIGNUP_LIBRARY_NAME(U_ICU_VERSION_MAJOR_NUM), RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) library = dlopen("libicui18n.so", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    *(void **)&icu.open = dlsym(library, SIGNUP_SYMBOL(uregex_open));
    *(void **)&icu.close = dlsym(library, SIGNUP_SYMBOL(uregex_close));
    *(void **)&icu.set_text = dlsym(library, SIGNUP_SYMBOL(uregex_setText));
    *(void **)&icu.matches = dlsym(library, SIGNUP_SYMBOL(uregex_matches));
    *(void **)&icu.set_match_callback = dlsym(library, SIGNUP_SYMBOL(uregex_setMatchCallback));
    loaded = icu.open && icu.close && icu.set_text && icu.matches && icu.set_match_callback;
}

struct signup_pattern {
    URegularExpression *expression;
};

signup_pattern *signup_pattern_compile(const uint16_t *pattern, int32_t length) {
    pthread_once(&load_once, load);
    if (!loaded) return NULL;
    UErrorCode status = U_ZERO_ERROR;
    UParseError where;
    URegularExpression *expression = icu.open((const UChar *)pattern, length, 0, &where, &status);
    if (U_FAILURE(status) || expression == NULL) {
        if (expression != NULL) icu.close(expression);
        return NULL;
    }
    signup_pattern *compiled = malloc(sizeof *compiled);
    if (compiled == NULL) {
        icu.close(expression);
        return NULL;
    }
    compiled->expression = expression;
    return compiled;
}

void signup_pattern_free(signup_pattern *pattern) {
    if (pattern == NULL) return;
    icu.close(pattern->expression);
    free(pattern);
}

typedef struct {
    int32_t limit;
    int32_t used;
} step_count;

// ICU calls this once per step of a match; returning false stops it.
static UBool count_step(const void *context, int32_t steps) {
    step_count *count = (step_count *)context;
    count->used = steps;
    return steps < count->limit;
}

signup_match_outcome signup_pattern_matches_whole(
    signup_pattern *pattern, const uint16_t *text, int32_t length, int32_t step_limit, int32_t *steps_used) {
    static const UChar empty[1] = { 0 };
    if (text == NULL) {
        text = empty;
        length = 0;
    }
    step_count count = { step_limit < 1 ? 1 : step_limit, 0 };
    UErrorCode status = U_ZERO_ERROR;
    icu.set_match_callback(pattern->expression, count_step, &count, &status);
    icu.set_text(pattern->expression, (const UChar *)text, length, &status);
    UBool matched = U_SUCCESS(status) ? icu.matches(pattern->expression, -1, &status) : 0;
    UErrorCode detached = U_ZERO_ERROR;
    icu.set_match_callback(pattern->expression, NULL, NULL, &detached);
    // The text is the caller's: the expression must not keep pointing at it.
    icu.set_text(pattern->expression, empty, 0, &detached);
    *steps_used = count.used;
    if (U_FAILURE(status)) return signup_match_over_limit;
    return matched ? signup_match_yes : signup_match_no;
}

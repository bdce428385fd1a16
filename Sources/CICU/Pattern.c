#include "CICU.h"

#include "Library.h"

#include <stdlib.h>

struct signup_pattern {
    URegularExpression *expression;
};

signup_pattern *signup_pattern_compile(const uint16_t *pattern, int32_t length) {
    const signup_icu_functions *icu = signup_icu();
    if (icu == NULL) return NULL;
    UErrorCode status = U_ZERO_ERROR;
    UParseError where;
    URegularExpression *expression = icu->regex_open((const UChar *)pattern, length, 0, &where, &status);
    if (U_FAILURE(status) || expression == NULL) {
        if (expression != NULL) icu->regex_close(expression);
        return NULL;
    }
    signup_pattern *compiled = malloc(sizeof *compiled);
    if (compiled == NULL) {
        icu->regex_close(expression);
        return NULL;
    }
    compiled->expression = expression;
    return compiled;
}

void signup_pattern_free(signup_pattern *pattern) {
    if (pattern == NULL) return;
    signup_icu()->regex_close(pattern->expression);
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

static signup_match_outcome run(
    signup_pattern *pattern, const uint16_t *text, int32_t length, int32_t step_limit, int32_t *steps_used, int whole) {
    static const UChar empty[1] = { 0 };
    if (text == NULL) {
        text = empty;
        length = 0;
    }
    const signup_icu_functions *icu = signup_icu();
    step_count count = { step_limit < 1 ? 1 : step_limit, 0 };
    UErrorCode status = U_ZERO_ERROR;
    icu->regex_set_match_callback(pattern->expression, count_step, &count, &status);
    icu->regex_set_text(pattern->expression, (const UChar *)text, length, &status);
    UBool matched = U_SUCCESS(status)
        ? (whole ? icu->regex_matches(pattern->expression, -1, &status) : icu->regex_find(pattern->expression, 0, &status))
        : 0;
    UErrorCode detached = U_ZERO_ERROR;
    icu->regex_set_match_callback(pattern->expression, NULL, NULL, &detached);
    // The text is the caller's: the expression must not keep pointing at it.
    icu->regex_set_text(pattern->expression, empty, 0, &detached);
    *steps_used = count.used;
    if (U_FAILURE(status)) return signup_match_over_limit;
    return matched ? signup_match_yes : signup_match_no;
}

signup_match_outcome signup_pattern_matches_whole(
    signup_pattern *pattern, const uint16_t *text, int32_t length, int32_t step_limit, int32_t *steps_used) {
    return run(pattern, text, length, step_limit, steps_used, 1);
}

signup_match_outcome signup_pattern_finds(
    signup_pattern *pattern, const uint16_t *text, int32_t length, int32_t step_limit, int32_t *steps_used) {
    return run(pattern, text, length, step_limit, steps_used, 0);
}

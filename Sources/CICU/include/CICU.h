#ifndef SIGNUP_CICU_H
#define SIGNUP_CICU_H

#include <stdint.h>

/// ICU's C API (Debian's libicu), loaded with dlopen on first use as libcurl is (see CCurl.h):
/// whole-value matching whose engine counts its work, so that a match can be stopped after a
/// number of steps, deterministically, on any machine; and Unicode normalisation.

/// Whether ICU's library can be loaded: once it has been asked for, whether it was; before,
/// whether the loader would find its file ($LD_LIBRARY_PATH, /etc/ld.so.cache, the default
/// folders), without loading it (which costs a process about 2 MiB).
int signup_icu_is_installed(void);

typedef struct signup_pattern signup_pattern;

/// Compiles `pattern` (UTF-16); NULL when it does not compile or ICU cannot be loaded.
signup_pattern *signup_pattern_compile(const uint16_t *pattern, int32_t length);
void signup_pattern_free(signup_pattern *pattern);

typedef enum {
    signup_match_no = 0,
    signup_match_yes = 1,
    /// The engine used `step_limit` steps, or its backtracking stack, before it could decide.
    signup_match_over_limit = 2,
} signup_match_outcome;

/// Whether all of `text` (UTF-16) matches. ICU counts a step per 10 000 operations of its engine;
/// the match stops, undecided, once it has spent `step_limit` steps (at least 1). `steps_used`
/// gets the whole steps spent. Not safe to call for one pattern from two threads at once.
signup_match_outcome signup_pattern_matches_whole(
    signup_pattern *pattern, const uint16_t *text, int32_t length, int32_t step_limit, int32_t *steps_used);

/// Whether some part of `text` matches (a search, as JSON Schema's `pattern`), within the same
/// limit as `signup_pattern_matches_whole`.
signup_match_outcome signup_pattern_finds(
    signup_pattern *pattern, const uint16_t *text, int32_t length, int32_t step_limit, int32_t *steps_used);

/// `text` (`length` bytes of valid UTF-8) in Unicode normalisation form KC. Returns the length in
/// bytes of the normal form, which `*normalized` then holds (release it with free()); 0, with
/// `*normalized` NULL, when `text` is in NFKC already; -1 when ICU cannot be loaded or fails.
int32_t signup_nfkc(const uint8_t *text, int32_t length, uint8_t **normalized);

/// `text` in Unicode normalisation form C, as `signup_nfkc` gives form KC.
int32_t signup_nfc(const uint8_t *text, int32_t length, uint8_t **normalized);

/// A domain name (`length` bytes of UTF-8) as UTS #46 processing for lookup turns it into ASCII
/// (non-transitional, STD3 rules, with the bidi and CONTEXTJ checks): the length of the ASCII form
/// written to `ascii` (at most `capacity` bytes, not terminated); -1 when the name breaks a rule
/// of UTS #46 or does not fit; -2 when ICU cannot be loaded.
int32_t signup_domain_to_ascii(const uint8_t *domain, int32_t length, uint8_t *ascii, int32_t capacity);

/// The same with RFC 5892's CONTEXTO rules checked too, for IDNA2008 host names; an A-label
/// (`xn--…`) is decoded and checked as its U-label is.
int32_t signup_hostname_to_ascii_strict(const uint8_t *name, int32_t length, uint8_t *ascii, int32_t capacity);

/// Restriction levels of Unicode TS #39 §5.2, from the strictest.
typedef enum {
    signup_restriction_ascii = 1,
    signup_restriction_single_script = 2,
    signup_restriction_highly_restrictive = 3,
    signup_restriction_moderately_restrictive = 4,
    signup_restriction_minimally_restrictive = 5,
} signup_restriction_level;

/// Whether `text` (`length` bytes of UTF-8) mixes scripts beyond `level`, or repeats a
/// non-spacing mark invisibly (ICU's spoof checker, UTS #39 §5): 1 when it does, 0 when it does
/// not, -1 when ICU cannot be loaded or fails.
int signup_exceeds_restriction_level(const uint8_t *text, int32_t length, signup_restriction_level level);

/// Whether the spoof checker of `level` is made (ICU is loaded on the first call): 1 when it is,
/// 0 when ICU cannot be loaded.
int signup_restriction_checker_is_ready(signup_restriction_level level);

/// The UTS #39 confusable skeleton of `text` (`length` bytes of UTF-8): two strings look alike
/// when their skeletons are equal. Returns the skeleton's length in bytes, which `*skeleton` then
/// holds (release it with free()); -1, with `*skeleton` NULL, when ICU cannot be loaded or fails.
int32_t signup_confusable_skeleton(const uint8_t *text, int32_t length, uint8_t **skeleton);

#endif

#include "Library.h"

#include <dlfcn.h>
#include <pthread.h>

// The headers rename each function with the library's version (uregex_open → uregex_open_72);
// stringifying the renamed name gives the symbol to look up.
#define SIGNUP_NAME(x) #x
#define SIGNUP_SYMBOL(x) SIGNUP_NAME(x)
#define SIGNUP_LIBRARY_NAME(major) "libicui18n.so." SIGNUP_NAME(major)

static signup_icu_functions functions;
static int loaded = 0;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    // libicui18n depends on libicuuc, so dlsym finds the normaliser's functions through it too.
    void *library = dlopen(SIGNUP_LIBRARY_NAME(U_ICU_VERSION_MAJOR_NUM), RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) library = dlopen("libicui18n.so", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    *(void **)&functions.regex_open = dlsym(library, SIGNUP_SYMBOL(uregex_open));
    *(void **)&functions.regex_close = dlsym(library, SIGNUP_SYMBOL(uregex_close));
    *(void **)&functions.regex_set_text = dlsym(library, SIGNUP_SYMBOL(uregex_setText));
    *(void **)&functions.regex_matches = dlsym(library, SIGNUP_SYMBOL(uregex_matches));
    *(void **)&functions.regex_set_match_callback = dlsym(library, SIGNUP_SYMBOL(uregex_setMatchCallback));
    *(void **)&functions.nfkc_instance = dlsym(library, SIGNUP_SYMBOL(unorm2_getNFKCInstance));
    *(void **)&functions.span_quick_check_yes = dlsym(library, SIGNUP_SYMBOL(unorm2_spanQuickCheckYes));
    *(void **)&functions.normalize = dlsym(library, SIGNUP_SYMBOL(unorm2_normalize));
    *(void **)&functions.from_utf8 = dlsym(library, SIGNUP_SYMBOL(u_strFromUTF8));
    *(void **)&functions.to_utf8 = dlsym(library, SIGNUP_SYMBOL(u_strToUTF8));
    *(void **)&functions.idna_open_uts46 = dlsym(library, SIGNUP_SYMBOL(uidna_openUTS46));
    *(void **)&functions.idna_name_to_ascii_utf8 = dlsym(library, SIGNUP_SYMBOL(uidna_nameToASCII_UTF8));
    *(void **)&functions.spoof_open = dlsym(library, SIGNUP_SYMBOL(uspoof_open));
    *(void **)&functions.spoof_set_checks = dlsym(library, SIGNUP_SYMBOL(uspoof_setChecks));
    *(void **)&functions.spoof_set_restriction_level = dlsym(library, SIGNUP_SYMBOL(uspoof_setRestrictionLevel));
    *(void **)&functions.spoof_check2_utf8 = dlsym(library, SIGNUP_SYMBOL(uspoof_check2UTF8));
    *(void **)&functions.spoof_get_skeleton_utf8 = dlsym(library, SIGNUP_SYMBOL(uspoof_getSkeletonUTF8));
    loaded = functions.spoof_open && functions.spoof_set_checks && functions.spoof_set_restriction_level
        && functions.spoof_check2_utf8 && functions.spoof_get_skeleton_utf8
        && functions.idna_open_uts46 && functions.idna_name_to_ascii_utf8 && functions.regex_open && functions.regex_close && functions.regex_set_text && functions.regex_matches
        && functions.regex_set_match_callback && functions.nfkc_instance && functions.span_quick_check_yes
        && functions.normalize && functions.from_utf8 && functions.to_utf8;
}

const signup_icu_functions *signup_icu(void) {
    pthread_once(&load_once, load);
    return loaded ? &functions : NULL;
}

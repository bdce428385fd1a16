#define _GNU_SOURCE  // memmem
#include "Library.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

// The headers rename each function with the library's version (uregex_open → uregex_open_72);
// stringifying the renamed name gives the symbol to look up.
#define SIGNUP_NAME(x) #x
#define SIGNUP_SYMBOL(x) SIGNUP_NAME(x)
#define SIGNUP_LIBRARY_NAME(major) "libicui18n.so." SIGNUP_NAME(major)

static signup_icu_functions functions;
static int loaded = 0;
static _Atomic int tried = 0;
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
    *(void **)&functions.regex_find = dlsym(library, SIGNUP_SYMBOL(uregex_find));
    *(void **)&functions.regex_set_match_callback = dlsym(library, SIGNUP_SYMBOL(uregex_setMatchCallback));
    *(void **)&functions.nfkc_instance = dlsym(library, SIGNUP_SYMBOL(unorm2_getNFKCInstance));
    *(void **)&functions.nfc_instance = dlsym(library, SIGNUP_SYMBOL(unorm2_getNFCInstance));
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
        && functions.idna_open_uts46 && functions.idna_name_to_ascii_utf8 && functions.regex_open && functions.regex_close && functions.regex_set_text && functions.regex_matches && functions.regex_find
        && functions.regex_set_match_callback && functions.nfkc_instance && functions.nfc_instance && functions.span_quick_check_yes
        && functions.normalize && functions.from_utf8 && functions.to_utf8;
}

const signup_icu_functions *signup_icu(void) {
    pthread_once(&load_once, load);
    tried = 1;
    return loaded ? &functions : NULL;
}

static const char library_name[] = SIGNUP_LIBRARY_NAME(U_ICU_VERSION_MAJOR_NUM);

/// Whether `folder`/library_name exists.
static int folder_has_library(const char *folder, size_t length) {
    char path[4096];
    if (length == 0 || length + 1 + sizeof library_name > sizeof path) return 0;
    memcpy(path, folder, length);
    path[length] = '/';
    memcpy(path + length + 1, library_name, sizeof library_name);
    return access(path, R_OK) == 0;
}

/// Whether the loader's cache (ldconfig's /etc/ld.so.cache) names the library at a path that
/// is still there: its string table holds each library's path, NUL-terminated.
static int loader_cache_names_library(void) {
    int descriptor = open("/etc/ld.so.cache", O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return 0;
    struct stat status;
    int found = 0;
    if (fstat(descriptor, &status) == 0 && status.st_size > 0 && status.st_size < (64 << 20)) {
        size_t size = (size_t)status.st_size;
        const char *cache = mmap(NULL, size, PROT_READ, MAP_PRIVATE, descriptor, 0);
        if (cache != MAP_FAILED) {
            char ending[sizeof library_name + 1] = "/";
            memcpy(ending + 1, library_name, sizeof library_name);
            const char *from = cache, *end = cache + size;
            while (!found && from < end) {
                const char *match = memmem(from, (size_t)(end - from), ending, sizeof ending);
                if (match == NULL) break;
                const char *start = match;
                while (start > cache && start[-1] != '\0') start--;
                char path[4096];
                size_t length = (size_t)(match - start) + sizeof ending - 1;
                if (length < sizeof path) {
                    memcpy(path, start, length);
                    path[length] = '\0';
                    found = access(path, R_OK) == 0;
                }
                from = match + sizeof ending;
            }
            munmap((void *)cache, size);
        }
    }
    close(descriptor);
    return found;
}

int signup_icu_is_installed(void) {
    if (tried) return signup_icu() != NULL;
    // Found the way the loader would look: $LD_LIBRARY_PATH, its cache, its default folders.
    const char *search = getenv("LD_LIBRARY_PATH");
    while (search != NULL && *search != '\0') {
        size_t length = strcspn(search, ":;");
        if (folder_has_library(search, length)) return 1;
        search += length;
        if (*search != '\0') search++;
    }
    if (loader_cache_names_library()) return 1;
    static const char *const folders[] = {
#if defined(__x86_64__)
        "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
#elif defined(__aarch64__)
        "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
#endif
        "/lib64", "/usr/lib64", "/lib", "/usr/lib",
    };
    for (size_t index = 0; index < sizeof folders / sizeof folders[0]; index++) {
        if (folder_has_library(folders[index], strlen(folders[index]))) return 1;
    }
    return 0;
}

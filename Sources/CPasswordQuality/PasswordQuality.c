#include "CPasswordQuality.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <stddef.h>

// From libpwquality's pwquality.h (its API has been stable since version 1.0).
#define PWQ_SETTING_DIFF_OK 1
#define PWQ_SETTING_MIN_LENGTH 3
#define PWQ_SETTING_MAX_REPEAT 9
#define PWQ_SETTING_GECOS_CHECK 12
#define PWQ_SETTING_MAX_SEQUENCE 14
#define PWQ_SETTING_DICT_CHECK 15
#define PWQ_SETTING_USER_CHECK 16
#define PWQ_ERROR_CRACKLIB_CHECK -22

typedef struct pwquality_settings pwquality_settings_t;

static pwquality_settings_t *(*default_settings)(void);
static int (*set_int_value)(pwquality_settings_t *, int, int);
static int (*check)(pwquality_settings_t *, const char *, const char *, const char *, void **);

static pwquality_settings_t *settings = NULL;
static const char *problem = NULL;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t check_lock = PTHREAD_MUTEX_INITIALIZER;

static void load(void) {
    void *library = dlopen("libpwquality.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        problem = "libpwquality is not installed (Debian: apt-get install libpwquality1 cracklib-runtime)";
        return;
    }
    *(void **)&default_settings = dlsym(library, "pwquality_default_settings");
    *(void **)&set_int_value = dlsym(library, "pwquality_set_int_value");
    *(void **)&check = dlsym(library, "pwquality_check");
    if (default_settings == NULL || set_int_value == NULL || check == NULL) {
        problem = "libpwquality.so.1 lacks pwquality_check (Debian: apt-get install libpwquality1)";
        return;
    }
    settings = default_settings();
    if (settings == NULL) {
        problem = "libpwquality could not make its settings";
        return;
    }
    // Only the dictionary check: length, repetition, sequences and similarity are the form's own
    // rules, counted in code points. The shortest minimum libpwquality takes is 6.
    set_int_value(settings, PWQ_SETTING_MIN_LENGTH, 6);
    set_int_value(settings, PWQ_SETTING_DIFF_OK, 0);
    set_int_value(settings, PWQ_SETTING_MAX_REPEAT, 0);
    set_int_value(settings, PWQ_SETTING_MAX_SEQUENCE, 0);
    set_int_value(settings, PWQ_SETTING_GECOS_CHECK, 0);
    set_int_value(settings, PWQ_SETTING_USER_CHECK, 0);
    set_int_value(settings, PWQ_SETTING_DICT_CHECK, 1);
    // Without cracklib's dictionary every password fails its check ("error loading dictionary").
    if (check(settings, "vq7Rk2Zt9Wm4Lx8", NULL, NULL, NULL) == PWQ_ERROR_CRACKLIB_CHECK) {
        problem = "cracklib's dictionary is missing (Debian: apt-get install cracklib-runtime)";
    }
}

const char *signup_pwquality_load(void) {
    pthread_once(&load_once, load);
    return problem;
}

// When the last question asked in the foreground (by the event loop) began or ended.
static _Atomic long long last_foreground_question = 0;

static long long monotonic_nanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

int signup_pwquality_is_dictionary_based(const char *password, int in_background) {
    if (signup_pwquality_load() != NULL) return -1;
    if (in_background) {
        // A background question (a recording's placeholder search) gives way while the loop has
        // asked within the last 2 ms, for at most a second, so that the loop's next question
        // seldom waits behind one of its (cracklib takes up to ~20 ms on a long password).
        for (int pauses = 0; pauses < 1000; pauses++) {
            if (monotonic_nanoseconds() - atomic_load(&last_foreground_question) > 2000000LL) break;
            struct timespec pause = {0, 1000000};
            nanosleep(&pause, NULL);
        }
    } else {
        atomic_store(&last_foreground_question, monotonic_nanoseconds());
    }
    pthread_mutex_lock(&check_lock);
    int score = check(settings, password, NULL, NULL, NULL);
    pthread_mutex_unlock(&check_lock);
    if (!in_background) atomic_store(&last_foreground_question, monotonic_nanoseconds());
    return score == PWQ_ERROR_CRACKLIB_CHECK ? 1 : 0;
}

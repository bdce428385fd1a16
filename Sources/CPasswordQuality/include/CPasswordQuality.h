#ifndef SIGNUP_CPASSWORDQUALITY_H
#define SIGNUP_CPASSWORDQUALITY_H

/// libpwquality (Debian's libpwquality1), which asks cracklib whether a password is built on a
/// dictionary word. Loaded with dlopen on first use, as libcurl and libpq are, so that neither
/// building nor starting signup-rpc needs it; only the rule that asks does. The few functions
/// used are declared here, so its header (libpwquality-dev) is not needed either.

/// Loads libpwquality.so.1 and its settings once; NULL when it is usable, otherwise why not (a
/// static string naming what to install).
const char *signup_pwquality_load(void);

/// 1 when cracklib finds `password` (NUL-terminated UTF-8) built on a dictionary word or too
/// systematic, 0 when it does not, -1 when the library cannot be loaded. Calls are serialised:
/// cracklib keeps its dictionary and its answers in static storage.
// 1 when cracklib finds `password` built on a dictionary word, 0 when not, -1 when it cannot
// be asked; `in_background` (1) gives way to questions asked in the foreground (0).
int signup_pwquality_is_dictionary_based(const char *password, int in_background);

#endif

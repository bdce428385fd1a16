#ifndef SIGNUP_CCURL_H
#define SIGNUP_CCURL_H

#include <stddef.h>

/// One HTTP exchange through libcurl, which is loaded with dlopen on first use: linking it (or
/// FoundationNetworking, which links it) would make every start of signup-rpc load about thirty
/// libraries that only the HTTP backend needs.

/// Loads libcurl.so.4 once; NULL when it is there, otherwise why not (a static string).
const char *signup_curl_load(void);

/// Lets another thread abandon an exchange at once: its sockets are shut down and it ends.
typedef struct signup_http_cancel signup_http_cancel;
signup_http_cancel *signup_http_cancel_create(void);
void signup_http_cancel_fire(signup_http_cancel *cancel);
void signup_http_cancel_destroy(signup_http_cancel *cancel);

typedef struct {
    const char *method;
    const char *url;
    /// NULL for none.
    const char *content_type;
    /// Whether there is a body (POSTed, or sent with a custom method); a GET has none.
    int has_body;
    const unsigned char *body;
    size_t body_length;
    long timeout_ms;
    /// More request headers, each a whole `Name: value` line without a line break.
    const char *const *headers;
    size_t header_count;
    /// The most bytes an answer's body may have: a longer one ends the exchange unread, with
    /// `body_too_large` set.
    size_t max_body_length;
} signup_http_request;

typedef struct {
    long status;
    /// malloc'ed; release with signup_http_response_free.
    unsigned char *body;
    size_t body_length;
    /// Set when libcurl gave up because the exchange outlasted its timeout.
    int timed_out;
    /// Set when the answer's body was longer than the request's `max_body_length`.
    int body_too_large;
    /// Empty when the exchange completed; otherwise what went wrong.
    char error[256];
} signup_http_response;

/// Runs the exchange on the calling thread; 0 when a status arrived, -1 otherwise (see `error`).
int signup_http_perform(const signup_http_request *request, signup_http_response *response,
                        signup_http_cancel *cancel);
void signup_http_response_free(signup_http_response *response);

#endif

#ifndef SIGNUP_CCURL_H
#define SIGNUP_CCURL_H

#include <stddef.h>
#include <stdint.h>

/// Every HTTP exchange of the process, on libcurl's multi interface, driven by a thread for each
/// processor, at most `SIGNUP_HTTP_MAX_ENGINES`: each exchange is one thread's for its life. libcurl is loaded with dlopen on first use: linking it (or FoundationNetworking, which
/// links it) would make every start of signup-rpc load about thirty libraries that only HTTP needs.
///
/// At most `SIGNUP_HTTP_MAX_IN_FLIGHT` exchanges are on the wire at once; more wait, in the order
/// they were started, and each one's timeout counts from when it is sent. A hung or trickling
/// endpoint holds only its own exchanges: no thread ever blocks on one. Each waits on epoll for
/// the sockets libcurl names (libcurl's socket interface), so each wake costs the sockets that are
/// ready, not every exchange on the wire. Connecting and sending are mostly the kernel's work,
/// which one thread does one exchange at a time: a thread a processor spreads a burst of them.

/// The most exchanges on the wire at once, for the whole process (each thread its equal share).
#define SIGNUP_HTTP_MAX_IN_FLIGHT 4096

/// The most threads that drive exchanges.
#define SIGNUP_HTTP_MAX_ENGINES 4

/// Loads libcurl.so.4 once; NULL when it is there, otherwise why not (a static string).
const char *signup_curl_load(void);

typedef struct {
    const char *method;
    const char *url;
    /// NULL for none.
    const char *content_type;
    /// Whether there is a body (POSTed, or sent with a custom method); a GET has none.
    int has_body;
    const unsigned char *body;
    size_t body_length;
    /// Counted from when the request is sent, to its answer's last byte.
    long timeout_ms;
    /// More request headers, each a whole `Name: value` line without a line break.
    const char *const *headers;
    size_t header_count;
    /// The most bytes an answer's body may have: a longer one ends the exchange unread, with
    /// `body_too_large` set.
    size_t max_body_length;
    /// Sent as `User-Agent`; NULL for none.
    const char *user_agent;
} signup_http_request;

typedef struct {
    long status;
    /// Owned by the engine; valid only during the completion call.
    const unsigned char *body;
    size_t body_length;
    /// Set when libcurl gave up because the exchange outlasted its timeout.
    int timed_out;
    /// Set when the answer's body was longer than the request's `max_body_length`.
    int body_too_large;
    /// Empty when the exchange completed; otherwise what went wrong.
    char error[256];
} signup_http_response;

/// Called on the engine's thread once for each exchange that was not aborted, with the number
/// `signup_http_start` gave it. It must not block: hand the answer on and return.
typedef void (*signup_http_completion)(uint64_t exchange, const signup_http_response *response);

/// Starts an exchange (the request is copied); its number, never 0, or 0 when it could not be
/// started (`problem` then says why, in a static string). Completions go to `completion`, which
/// must be the same function for every call.
uint64_t signup_http_start(const signup_http_request *request, signup_http_completion completion,
                           const char **problem);

/// Ends an exchange at once, on the wire too, if it has not completed; its completion is then
/// never called. Safe from any thread, and for a number that has completed.
void signup_http_abort(uint64_t exchange);

#endif

#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

// The part of libcurl's ABI used here (stable since libcurl 7.32; values from curl/curl.h).
typedef void CURL;
typedef int CURLcode;
typedef long long curl_off_t;
struct curl_slist { char *data; struct curl_slist *next; };
struct curl_sockaddr { int family; int socktype; int protocol; unsigned int addrlen; struct sockaddr addr; };

enum {
    CURLE_OK = 0,
    CURLE_OPERATION_TIMEDOUT = 28,
    CURL_GLOBAL_DEFAULT = 3,
    CURL_ERROR_SIZE = 256,
    CURLOPT_WRITEDATA = 10001,
    CURLOPT_URL = 10002,
    CURLOPT_ERRORBUFFER = 10010,
    CURLOPT_POSTFIELDS = 10015,
    CURLOPT_HTTPHEADER = 10023,
    CURLOPT_CUSTOMREQUEST = 10036,
    CURLOPT_XFERINFODATA = 10057,
    CURLOPT_OPENSOCKETDATA = 10164,
    CURLOPT_CLOSESOCKETDATA = 10209,
    CURLOPT_WRITEFUNCTION = 20011,
    CURLOPT_OPENSOCKETFUNCTION = 20163,
    CURLOPT_CLOSESOCKETFUNCTION = 20208,
    CURLOPT_XFERINFOFUNCTION = 20219,
    CURLOPT_POSTFIELDSIZE_LARGE = 30120,
    CURLOPT_NOPROGRESS = 43,
    CURLOPT_HTTPGET = 80,
    CURLOPT_NOSIGNAL = 99,
    CURLOPT_TIMEOUT_MS = 155,
    CURLINFO_RESPONSE_CODE = 0x200002,
};

static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *handle, int option, ...);
    CURLcode (*easy_perform)(CURL *handle);
    CURLcode (*easy_getinfo)(CURL *handle, int info, ...);
    void (*easy_cleanup)(CURL *handle);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
    void (*slist_free_all)(struct curl_slist *list);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_problem = "libcurl was never loaded";

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        load_problem = "the HTTP backend needs libcurl (libcurl.so.4), which could not be loaded; "
                       "install it (Debian: apt-get install libcurl4)";
        return;
    }
#define BIND(field, name) \
    if ((*(void **)&curl.field = dlsym(library, name)) == NULL) { \
        load_problem = "the libcurl found lacks " name "; install libcurl 7.32 or newer"; \
        return; \
    }
    BIND(global_init, "curl_global_init")
    BIND(easy_init, "curl_easy_init")
    BIND(easy_setopt, "curl_easy_setopt")
    BIND(easy_perform, "curl_easy_perform")
    BIND(easy_getinfo, "curl_easy_getinfo")
    BIND(easy_cleanup, "curl_easy_cleanup")
    BIND(easy_strerror, "curl_easy_strerror")
    BIND(slist_append, "curl_slist_append")
    BIND(slist_free_all, "curl_slist_free_all")
#undef BIND
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        load_problem = "libcurl did not initialise (curl_global_init failed)";
        return;
    }
    load_problem = NULL;
}

const char *signup_curl_load(void) {
    pthread_once(&load_once, load);
    return load_problem;
}

// MARK: Cancelling

enum { MAX_SOCKETS = 8 };

struct signup_http_cancel {
    pthread_mutex_t lock;
    int cancelled;
    // The exchange's open sockets (curl may race IPv4 against IPv6); -1 where free.
    int sockets[MAX_SOCKETS];
};

signup_http_cancel *signup_http_cancel_create(void) {
    signup_http_cancel *cancel = calloc(1, sizeof *cancel);
    if (cancel == NULL) return NULL;
    pthread_mutex_init(&cancel->lock, NULL);
    for (int i = 0; i < MAX_SOCKETS; i++) cancel->sockets[i] = -1;
    return cancel;
}

void signup_http_cancel_fire(signup_http_cancel *cancel) {
    pthread_mutex_lock(&cancel->lock);
    cancel->cancelled = 1;
    // Wakes curl from its wait at once; it then closes the socket through close_socket.
    for (int i = 0; i < MAX_SOCKETS; i++) {
        if (cancel->sockets[i] >= 0) shutdown(cancel->sockets[i], SHUT_RDWR);
    }
    pthread_mutex_unlock(&cancel->lock);
}

void signup_http_cancel_destroy(signup_http_cancel *cancel) {
    pthread_mutex_destroy(&cancel->lock);
    free(cancel);
}

static int open_socket(void *context, int purpose, struct curl_sockaddr *address) {
    (void)purpose;
    signup_http_cancel *cancel = context;
    pthread_mutex_lock(&cancel->lock);
    int fd = -1;
    if (!cancel->cancelled) {
        for (int i = 0; i < MAX_SOCKETS; i++) {
            if (cancel->sockets[i] >= 0) continue;
            fd = socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
            cancel->sockets[i] = fd;
            break;
        }
    }
    pthread_mutex_unlock(&cancel->lock);
    return fd;
}

static int close_socket(void *context, int fd) {
    signup_http_cancel *cancel = context;
    pthread_mutex_lock(&cancel->lock);
    for (int i = 0; i < MAX_SOCKETS; i++) {
        if (cancel->sockets[i] == fd) cancel->sockets[i] = -1;
    }
    int result = close(fd);
    pthread_mutex_unlock(&cancel->lock);
    return result;
}

static int progress(void *context, curl_off_t down_total, curl_off_t down_now, curl_off_t up_total, curl_off_t up_now) {
    (void)down_total; (void)down_now; (void)up_total; (void)up_now;
    signup_http_cancel *cancel = context;
    pthread_mutex_lock(&cancel->lock);
    int cancelled = cancel->cancelled;
    pthread_mutex_unlock(&cancel->lock);
    return cancelled;
}

// MARK: The exchange

typedef struct {
    signup_http_response *response;
    size_t limit;
} collector;

static size_t collect(char *data, size_t size, size_t count, void *context) {
    collector *into = context;
    signup_http_response *response = into->response;
    size_t length = size * count;
    // The body so far is never over the limit, so the subtraction cannot wrap.
    if (length > into->limit - response->body_length) {
        response->body_too_large = 1;
        return 0;
    }
    unsigned char *grown = realloc(response->body, response->body_length + length + 1);
    if (grown == NULL) return 0;
    memcpy(grown + response->body_length, data, length);
    response->body = grown;
    response->body_length += length;
    return length;
}

int signup_http_perform(const signup_http_request *request, signup_http_response *response,
                        signup_http_cancel *cancel) {
    memset(response, 0, sizeof *response);
    const char *problem = signup_curl_load();
    if (problem != NULL) {
        snprintf(response->error, sizeof response->error, "%s", problem);
        return -1;
    }
    CURL *handle = curl.easy_init();
    if (handle == NULL) {
        snprintf(response->error, sizeof response->error, "libcurl could not start an exchange");
        return -1;
    }
    struct curl_slist *headers = curl.slist_append(NULL, "Expect:");
    if (request->content_type != NULL) {
        char line[128];
        snprintf(line, sizeof line, "Content-Type: %s", request->content_type);
        headers = curl.slist_append(headers, line);
    }
    for (size_t index = 0; index < request->header_count; index++) {
        headers = curl.slist_append(headers, request->headers[index]);
    }
    collector into = { response, request->max_body_length };
    curl.easy_setopt(handle, CURLOPT_URL, request->url);
    curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, CURLOPT_TIMEOUT_MS, request->timeout_ms);
    curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, response->error);
    curl.easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
    curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, collect);
    curl.easy_setopt(handle, CURLOPT_WRITEDATA, (void *)&into);
    curl.easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, open_socket);
    curl.easy_setopt(handle, CURLOPT_OPENSOCKETDATA, (void *)cancel);
    curl.easy_setopt(handle, CURLOPT_CLOSESOCKETFUNCTION, close_socket);
    curl.easy_setopt(handle, CURLOPT_CLOSESOCKETDATA, (void *)cancel);
    curl.easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
    curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, progress);
    curl.easy_setopt(handle, CURLOPT_XFERINFODATA, (void *)cancel);
    if (request->has_body) {
        curl.easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)request->body_length);
        curl.easy_setopt(handle, CURLOPT_POSTFIELDS, request->body_length > 0 ? (const void *)request->body : "");
    } else {
        curl.easy_setopt(handle, CURLOPT_HTTPGET, 1L);
    }
    if (strcmp(request->method, request->has_body ? "POST" : "GET") != 0) {
        curl.easy_setopt(handle, CURLOPT_CUSTOMREQUEST, request->method);
    }

    CURLcode code = curl.easy_perform(handle);
    if (code == CURLE_OK) {
        curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &response->status);
    } else {
        response->timed_out = code == CURLE_OPERATION_TIMEDOUT;
        if (response->error[0] == '\0') {
            snprintf(response->error, sizeof response->error, "%s", curl.easy_strerror(code));
        }
    }
    curl.easy_cleanup(handle);
    curl.slist_free_all(headers);
    return code == CURLE_OK ? 0 : -1;
}

void signup_http_response_free(signup_http_response *response) {
    free(response->body);
    response->body = NULL;
    response->body_length = 0;
}

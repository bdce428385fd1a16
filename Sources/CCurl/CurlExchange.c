#include "CCurl.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

// The part of libcurl's ABI used here (stable since libcurl 7.68; values from curl/curl.h).
typedef void CURL;
typedef void CURLM;
typedef int CURLcode;
typedef int CURLMcode;
typedef long long curl_off_t;
struct curl_slist { char *data; struct curl_slist *next; };
typedef struct { int msg; CURL *easy_handle; union { void *whatever; CURLcode result; } data; } CURLMsg;

enum {
    CURLMOPT_SOCKETDATA = 10002,
    CURLMOPT_TIMERDATA = 10005,
    CURLE_OK = 0,
    CURLE_OPERATION_TIMEDOUT = 28,
    CURL_GLOBAL_DEFAULT = 3,
    CURL_ERROR_SIZE = 256,
    CURLMSG_DONE = 1,
    CURLOPT_WRITEDATA = 10001,
    CURLOPT_URL = 10002,
    CURLOPT_ERRORBUFFER = 10010,
    CURLOPT_POSTFIELDS = 10015,
    CURLOPT_HTTPHEADER = 10023,
    CURLOPT_USERAGENT = 10018,
    CURLOPT_CUSTOMREQUEST = 10036,
    CURLOPT_PRIVATE = 10103,
    CURLOPT_WRITEFUNCTION = 20011,
    CURLOPT_POSTFIELDSIZE_LARGE = 30120,
    CURLOPT_HTTPGET = 80,
    CURLOPT_NOSIGNAL = 99,
    CURLOPT_TIMEOUT_MS = 155,
    CURLINFO_RESPONSE_CODE = 0x200002,
    CURLINFO_PRIVATE = 0x100015,
    CURLMOPT_SOCKETFUNCTION = 20001,
    CURLMOPT_TIMERFUNCTION = 20004,
    CURL_POLL_IN = 1,
    CURL_POLL_OUT = 2,
    CURL_POLL_REMOVE = 4,
    CURL_SOCKET_TIMEOUT = -1,
    CURL_CSELECT_IN = 1,
    CURL_CSELECT_OUT = 2,
    CURL_CSELECT_ERR = 4,
};

static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *handle, int option, ...);
    CURLcode (*easy_getinfo)(CURL *handle, int info, ...);
    void (*easy_cleanup)(CURL *handle);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
    void (*slist_free_all)(struct curl_slist *list);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_setopt)(CURLM *multi, int option, ...);
    CURLMcode (*multi_socket_action)(CURLM *multi, int socket, int events, int *running);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *left);
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
        load_problem = "the libcurl found lacks " name "; install libcurl 7.68 or newer"; \
        return; \
    }
    BIND(global_init, "curl_global_init")
    BIND(easy_init, "curl_easy_init")
    BIND(easy_setopt, "curl_easy_setopt")
    BIND(easy_getinfo, "curl_easy_getinfo")
    BIND(easy_cleanup, "curl_easy_cleanup")
    BIND(easy_strerror, "curl_easy_strerror")
    BIND(slist_append, "curl_slist_append")
    BIND(slist_free_all, "curl_slist_free_all")
    BIND(multi_init, "curl_multi_init")
    BIND(multi_add_handle, "curl_multi_add_handle")
    BIND(multi_remove_handle, "curl_multi_remove_handle")
    BIND(multi_setopt, "curl_multi_setopt")
    BIND(multi_socket_action, "curl_multi_socket_action")
    BIND(multi_info_read, "curl_multi_info_read")
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

// MARK: The engine

/// One exchange, from `signup_http_start` until its completion or abort.
typedef struct job {
    uint64_t id;
    /// NULL until the exchange is sent.
    CURL *easy;
    char *method, *url, *user_agent;
    unsigned char *body;
    size_t body_length;
    int has_body;
    struct curl_slist *headers;
    long timeout_ms;
    size_t limit;
    unsigned char *answer;
    size_t answer_length;
    int too_large;
    /// Set under the lock by `signup_http_abort` for an exchange on the wire; the engine then
    /// removes it, and never completes it.
    int aborted;
    char error[CURL_ERROR_SIZE];
    /// In the waiting queue or the list on the wire.
    struct job *previous, *next;
} job;

typedef struct { job *first, *last; size_t count; } job_list;

static void list_append(job_list *list, job *item) {
    item->previous = list->last;
    item->next = NULL;
    if (list->last != NULL) list->last->next = item; else list->first = item;
    list->last = item;
    list->count++;
}

static void list_remove(job_list *list, job *item) {
    if (item->previous != NULL) item->previous->next = item->next; else list->first = item->next;
    if (item->next != NULL) item->next->previous = item->previous; else list->last = item->previous;
    item->previous = item->next = NULL;
    list->count--;
}

static job *list_find(const job_list *list, uint64_t id) {
    for (job *item = list->first; item != NULL; item = item->next) {
        if (item->id == id) return item;
    }
    return NULL;
}

/// One engine: a thread of its own, its multi handle, and the exchanges it was given.
typedef struct http_engine {
    pthread_mutex_t lock;
    CURLM *multi;
    /// Started, not yet sent (over the in-flight limit, or not yet seen by the engine).
    job_list waiting;
    /// Sent: their easy handles are in `multi`. Only the engine thread adds and removes.
    job_list on_wire;
    /// Aborted while on the wire, for the engine to remove.
    job_list aborted;
    /// The engine waits on `poll` for the sockets libcurl names and for `wake`, an eventfd that
    /// `signup_http_start` and `signup_http_abort` write to.
    int poll, wake;
    /// When libcurl is next due to be called whatever the sockets do (a connection's or an
    /// exchange's timeout), in milliseconds of CLOCK_MONOTONIC; -1 for never. Engine thread only.
    long long timer_due;
} http_engine;

/// The engines, one for each processor up to SIGNUP_HTTP_MAX_ENGINES: connecting and sending
/// is mostly the kernel's work, which one thread does one exchange at a time. An exchange is
/// given to engine `id % engine_count` for its life. Set once, by `start_engines`.
static http_engine engines[SIGNUP_HTTP_MAX_ENGINES];
static int engine_count;
/// The most exchanges one engine has on the wire: its share of SIGNUP_HTTP_MAX_IN_FLIGHT.
static size_t engine_room = SIGNUP_HTTP_MAX_IN_FLIGHT;
static const char *engines_problem = "the HTTP engine never started";
static signup_http_completion completion_function;
/// The last exchange number given; under `numbers`.
static uint64_t last_id;
static pthread_mutex_t numbers = PTHREAD_MUTEX_INITIALIZER;

static pthread_once_t engine_once = PTHREAD_ONCE_INIT;

static void free_job(job *item) {
    if (item->easy != NULL) curl.easy_cleanup(item->easy);
    if (item->headers != NULL) curl.slist_free_all(item->headers);
    free(item->method);
    free(item->url);
    free(item->user_agent);
    free(item->body);
    free(item->answer);
    free(item);
}

static size_t collect(char *data, size_t size, size_t count, void *context) {
    job *into = context;
    size_t length = size * count;
    // The body so far is never over the limit, so the subtraction cannot wrap.
    if (length > into->limit - into->answer_length) {
        into->too_large = 1;
        return 0;
    }
    unsigned char *grown = realloc(into->answer, into->answer_length + length + 1);
    if (grown == NULL) return 0;
    memcpy(grown + into->answer_length, data, length);
    into->answer = grown;
    into->answer_length += length;
    return length;
}

/// Puts an exchange on the wire; on the engine thread. Returns 0, or -1 with `item->error` set.
static int send_job(http_engine *engine, job *item) {
    item->easy = curl.easy_init();
    if (item->easy == NULL) {
        snprintf(item->error, sizeof item->error, "libcurl could not start an exchange");
        return -1;
    }
    CURL *handle = item->easy;
    curl.easy_setopt(handle, CURLOPT_URL, item->url);
    curl.easy_setopt(handle, CURLOPT_PRIVATE, (void *)item);
    curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, CURLOPT_TIMEOUT_MS, item->timeout_ms);
    curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, item->error);
    curl.easy_setopt(handle, CURLOPT_HTTPHEADER, item->headers);
    curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, collect);
    curl.easy_setopt(handle, CURLOPT_WRITEDATA, (void *)item);
    if (item->user_agent != NULL) curl.easy_setopt(handle, CURLOPT_USERAGENT, item->user_agent);
    if (item->has_body) {
        curl.easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)item->body_length);
        curl.easy_setopt(handle, CURLOPT_POSTFIELDS, item->body != NULL ? (const void *)item->body : "");
    } else {
        curl.easy_setopt(handle, CURLOPT_HTTPGET, 1L);
    }
    if (strcmp(item->method, item->has_body ? "POST" : "GET") != 0) {
        curl.easy_setopt(handle, CURLOPT_CUSTOMREQUEST, item->method);
    }
    if (curl.multi_add_handle(engine->multi, handle) != 0) {
        snprintf(item->error, sizeof item->error, "libcurl could not send the exchange");
        return -1;
    }
    return 0;
}

static void complete(job *item, CURLcode code) {
    signup_http_response response;
    memset(&response, 0, sizeof response);
    if (code == CURLE_OK) {
        curl.easy_getinfo(item->easy, CURLINFO_RESPONSE_CODE, &response.status);
        response.body = item->answer;
        response.body_length = item->answer_length;
    } else {
        response.timed_out = code == CURLE_OPERATION_TIMEDOUT;
        response.body_too_large = item->too_large;
        const char *why = item->error[0] != '\0' ? item->error : (code < 0 ? "" : curl.easy_strerror(code));
        snprintf(response.error, sizeof response.error, "%s", why[0] != '\0' ? why : "the exchange failed");
    }
    completion_function(item->id, &response);
}

static long long monotonic_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/// libcurl names a socket to wait on, and for what, or one it no longer needs: the engine's
/// epoll set follows, so each wait costs the sockets that are ready, not every socket on the wire.
static int watch_socket(CURL *easy, int socket, int what, void *context, void *socket_data) {
    (void)easy; (void)socket_data;
    http_engine *engine = context;
    if (what == CURL_POLL_REMOVE) {
        epoll_ctl(engine->poll, EPOLL_CTL_DEL, socket, NULL);
        return 0;
    }
    struct epoll_event event = { .events = 0, .data.fd = socket };
    if (what & CURL_POLL_IN) event.events |= EPOLLIN;
    if (what & CURL_POLL_OUT) event.events |= EPOLLOUT;
    if (epoll_ctl(engine->poll, EPOLL_CTL_MOD, socket, &event) != 0 && errno == ENOENT) {
        // A socket that cannot be watched is not fatal: its exchange ends at its timeout.
        epoll_ctl(engine->poll, EPOLL_CTL_ADD, socket, &event);
    }
    return 0;
}

/// libcurl's next deadline (-1: none); it is called back, not called, from here.
static int set_timer(CURLM *multi, long timeout_ms, void *context) {
    (void)multi;
    http_engine *engine = context;
    engine->timer_due = timeout_ms < 0 ? -1 : monotonic_ms() + timeout_ms;
    return 0;
}

/// Hands the exchanges libcurl has finished to their completions.
static void complete_finished(http_engine *engine) {
    CURLMsg *message;
    int left = 0;
    while ((message = curl.multi_info_read(engine->multi, &left)) != NULL) {
        if (message->msg != CURLMSG_DONE) continue;
        job *item = NULL;
        curl.easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, (char **)&item);
        CURLcode code = message->data.result;
        pthread_mutex_lock(&engine->lock);
        // One aborted meanwhile is in `engine->aborted`, and goes with the next round.
        int aborted_meanwhile = item->aborted;
        if (!aborted_meanwhile) list_remove(&engine->on_wire, item);
        pthread_mutex_unlock(&engine->lock);
        if (aborted_meanwhile) continue;
        curl.multi_remove_handle(engine->multi, item->easy);
        complete(item, code);
        free_job(item);
    }
}

static void *run_engine(void *context) {
    http_engine *engine = context;
    struct epoll_event ready[256];
    int running = 0;
    for (;;) {
        // Take what was aborted, and send what waits while there is room on the wire. Sending
        // only hands the exchange to libcurl, so it is done under the lock: an exchange is always
        // in exactly one list, where an abort finds it.
        job_list aborted, failed = { NULL, NULL, 0 };
        pthread_mutex_lock(&engine->lock);
        aborted = engine->aborted;
        engine->aborted = (job_list){ NULL, NULL, 0 };
        while (engine->waiting.first != NULL && engine->on_wire.count < engine_room) {
            job *item = engine->waiting.first;
            list_remove(&engine->waiting, item);
            list_append(send_job(engine, item) == 0 ? &engine->on_wire : &failed, item);
        }
        pthread_mutex_unlock(&engine->lock);

        for (job *item = aborted.first, *next; item != NULL; item = next) {
            next = item->next;
            curl.multi_remove_handle(engine->multi, item->easy);
            free_job(item);
        }
        for (job *item = failed.first, *next; item != NULL; item = next) {
            next = item->next;
            complete(item, -1);
            free_job(item);
        }

        // Sleeps until a socket is ready, libcurl's deadline falls due, or start or abort wakes
        // it; at most a second, so that nothing waits on a wake-up lost.
        int wait = 1000;
        if (engine->timer_due >= 0) {
            long long left = engine->timer_due - monotonic_ms();
            wait = left <= 0 ? 0 : left < wait ? (int)left : wait;
        }
        int count = epoll_wait(engine->poll, ready, (int)(sizeof ready / sizeof ready[0]), wait);
        for (int index = 0; index < count; index++) {
            int socket = ready[index].data.fd;
            uint32_t events = ready[index].events;
            if (socket == engine->wake) {
                uint64_t wakes;
                while (read(engine->wake, &wakes, sizeof wakes) > 0) {}
                continue;
            }
            int action = 0;
            if (events & EPOLLIN) action |= CURL_CSELECT_IN;
            if (events & EPOLLOUT) action |= CURL_CSELECT_OUT;
            if ((events & EPOLLERR) || ((events & EPOLLHUP) && !(events & EPOLLIN))) action |= CURL_CSELECT_ERR;
            curl.multi_socket_action(engine->multi, socket, action, &running);
        }
        if (engine->timer_due >= 0 && monotonic_ms() >= engine->timer_due) {
            // Cleared first: the call may set the next deadline.
            engine->timer_due = -1;
            curl.multi_socket_action(engine->multi, CURL_SOCKET_TIMEOUT, 0, &running);
        }
        complete_finished(engine);
    }
    return NULL;
}

/// Makes an engine and starts its thread; NULL, or why not.
static const char *start_engine(http_engine *engine) {
    pthread_mutex_init(&engine->lock, NULL);
    engine->timer_due = -1;
    engine->multi = curl.multi_init();
    if (engine->multi == NULL) return "libcurl could not start its multi interface";
    engine->poll = epoll_create1(EPOLL_CLOEXEC);
    engine->wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    struct epoll_event wake = { .events = EPOLLIN, .data.fd = engine->wake };
    if (engine->poll < 0 || engine->wake < 0 || epoll_ctl(engine->poll, EPOLL_CTL_ADD, engine->wake, &wake) != 0) {
        return "the HTTP engine could not make its epoll set";
    }
    curl.multi_setopt(engine->multi, CURLMOPT_SOCKETFUNCTION, watch_socket);
    curl.multi_setopt(engine->multi, CURLMOPT_SOCKETDATA, (void *)engine);
    curl.multi_setopt(engine->multi, CURLMOPT_TIMERFUNCTION, set_timer);
    curl.multi_setopt(engine->multi, CURLMOPT_TIMERDATA, (void *)engine);
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    int started = pthread_create(&thread, &attributes, run_engine, engine);
    pthread_attr_destroy(&attributes);
    return started == 0 ? NULL : "the HTTP engine's thread could not be started";
}

static void start_engines(void) {
    const char *problem = signup_curl_load();
    if (problem != NULL) {
        engines_problem = problem;
        return;
    }
    long processors = sysconf(_SC_NPROCESSORS_ONLN);
    int wanted = processors < 1 ? 1 : processors > SIGNUP_HTTP_MAX_ENGINES ? SIGNUP_HTTP_MAX_ENGINES : (int)processors;
    // Those that started serve; none started is the problem of the first.
    for (int index = 0; index < wanted; index++) {
        problem = start_engine(&engines[index]);
        if (problem != NULL) break;
        engine_count = index + 1;
    }
    if (engine_count > 0) engine_room = SIGNUP_HTTP_MAX_IN_FLIGHT / (size_t)engine_count;
    engines_problem = engine_count > 0 ? NULL : problem;
}

/// Wakes the engine's wait; from any thread.
static void wake_engine(http_engine *engine) {
    uint64_t one = 1;
    // A full counter (2^64 - 2 wakes unread) already wakes it.
    (void)!write(engine->wake, &one, sizeof one);
}

/// The engine an exchange was given to, by its number.
static http_engine *engine_of(uint64_t id) {
    return &engines[id % (uint64_t)engine_count];
}

static char *copy_text(const char *text) {
    return text == NULL ? NULL : strdup(text);
}

uint64_t signup_http_start(const signup_http_request *request, signup_http_completion completion,
                           const char **problem) {
    pthread_once(&engine_once, start_engines);
    if (engines_problem != NULL) {
        *problem = engines_problem;
        return 0;
    }
    job *item = calloc(1, sizeof *item);
    if (item == NULL) {
        *problem = "out of memory for an HTTP exchange";
        return 0;
    }
    item->method = copy_text(request->method);
    item->url = copy_text(request->url);
    item->user_agent = copy_text(request->user_agent);
    item->has_body = request->has_body;
    item->body_length = request->has_body ? request->body_length : 0;
    if (item->body_length > 0) {
        item->body = malloc(item->body_length);
        if (item->body != NULL) memcpy(item->body, request->body, item->body_length);
    }
    item->timeout_ms = request->timeout_ms;
    item->limit = request->max_body_length;
    item->headers = curl.slist_append(NULL, "Expect:");
    if (request->content_type != NULL && item->headers != NULL) {
        char line[128];
        snprintf(line, sizeof line, "Content-Type: %s", request->content_type);
        item->headers = curl.slist_append(item->headers, line);
    }
    for (size_t index = 0; index < request->header_count && item->headers != NULL; index++) {
        struct curl_slist *grown = curl.slist_append(item->headers, request->headers[index]);
        if (grown == NULL) { curl.slist_free_all(item->headers); item->headers = NULL; }
        else item->headers = grown;
    }
    if (item->method == NULL || item->url == NULL || item->headers == NULL
        || (request->user_agent != NULL && item->user_agent == NULL)
        || (item->body_length > 0 && item->body == NULL)) {
        free_job(item);
        *problem = "out of memory for an HTTP exchange";
        return 0;
    }
    pthread_mutex_lock(&numbers);
    // Set once, before its engine can take the first exchange (through the engine's lock).
    if (completion_function == NULL) completion_function = completion;
    uint64_t id = ++last_id;
    pthread_mutex_unlock(&numbers);
    item->id = id;
    http_engine *engine = engine_of(id);
    pthread_mutex_lock(&engine->lock);
    list_append(&engine->waiting, item);
    pthread_mutex_unlock(&engine->lock);
    wake_engine(engine);
    return id;
}

void signup_http_abort(uint64_t exchange) {
    // 0 is no exchange's number (a start that failed); a real one was given after the engines started.
    if (exchange == 0) return;
    http_engine *engine = engine_of(exchange);
    pthread_mutex_lock(&engine->lock);
    job *waiting = list_find(&engine->waiting, exchange);
    if (waiting != NULL) list_remove(&engine->waiting, waiting);
    job *on_wire = waiting == NULL ? list_find(&engine->on_wire, exchange) : NULL;
    if (on_wire != NULL) {
        on_wire->aborted = 1;
        list_remove(&engine->on_wire, on_wire);
        list_append(&engine->aborted, on_wire);
    }
    pthread_mutex_unlock(&engine->lock);
    // One still waiting was never given to libcurl: it goes at once.
    if (waiting != NULL) free_job(waiting);
    if (on_wire != NULL) wake_engine(engine);
}


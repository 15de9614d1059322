/*
 * The C peer of Celer's latency benchmarks: the same ping-pong as the Java peers, over TCP or UDP, with
 * non-blocking sockets polled in a tight loop, so its numbers are the floor this machine and kernel allow.
 *
 *   celer_bench_peer server SIZE MAX_SECONDS
 *   celer_bench_peer client PORT WARMUP MESSAGES SIZE RTT_FILE PROGRESS_FILE MAX_SECONDS
 *   celer_bench_peer udp-server SIZE MAX_SECONDS [DROP_EVERY]
 *   celer_bench_peer udp-client PORT WARMUP MESSAGES SIZE RTT_FILE PROGRESS_FILE MAX_SECONDS
 *
 * The server prints "listening on port N" and, once the client is done, "stats side=server ...".
 * Over UDP a datagram may be lost: the client sends again after RESEND_AFTER_NS without an echo (a marker as
 * is, a timestamp as a fresh one, counted lost while measuring), ignores late echoes, and reports "lost=N";
 * the server goes on echoing until the end marker has not come again for a second. DROP_EVERY n, to test the
 * clients' resending, leaves every n-th datagram without an echo.
 * The client writes each measured round trip, in nanoseconds, as a little-endian int64 to RTT_FILE, and
 * keeps a count of messages done in the first eight bytes of PROGRESS_FILE (the harness reads it).
 * Both give up after MAX_SECONDS, and exit as soon as their stdin closes: the harness holds it open and
 * never writes, so a harness that dies, however it dies, never leaves them spinning.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* Same values as io.celer.bench.peer.Markers. */
#define MEASURE_START (INT64_MIN + 1)
#define MEASURE_END (INT64_MIN + 2)
#define PROGRESS_EVERY 1024
/* Same as io.celer.bench.peer.PingSession.RESEND_AFTER_MILLIS and EchoSession.LINGER_NANOS. */
#define RESEND_AFTER_NS 100000000LL
#define LINGER_NS 1000000000LL

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void die(const char *what)
{
    perror(what);
    exit(2);
}

/* Spins until exactly len bytes are in; 0 when the peer closed before the first byte. */
static int recv_full(int fd, unsigned char *buf, size_t len)
{
    size_t got = 0;
    while (got < len) {
        ssize_t n = recv(fd, buf + got, len - got, 0);
        if (n > 0) {
            got += (size_t)n;
        } else if (n == 0) {
            if (got == 0) {
                return 0;
            }
            fprintf(stderr, "stream ended inside a message\n");
            exit(2);
        } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            die("recv");
        }
    }
    return 1;
}

static void send_full(int fd, const unsigned char *buf, size_t len)
{
    size_t sent = 0;
    while (sent < len) {
        ssize_t n = send(fd, buf + sent, len - sent, MSG_NOSIGNAL);
        if (n >= 0) {
            sent += (size_t)n;
        } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            die("send");
        }
    }
}

static void tune(int fd)
{
    int one = 1;
    if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) < 0) {
        die("TCP_NODELAY");
    }
    if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0) {
        die("O_NONBLOCK");
    }
}

static int64_t load_ts(const unsigned char *buf)
{
    int64_t v;
    memcpy(&v, buf, sizeof v);
    return v;
}

static void store_ts(unsigned char *buf, int64_t v)
{
    memcpy(buf, &v, sizeof v);
}

static int serve(size_t size)
{
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    struct sockaddr_in addr;
    socklen_t addr_len = sizeof addr;
    if (listener < 0) {
        die("socket");
    }
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    if (bind(listener, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(listener, 1) < 0) {
        die("bind");
    }
    if (getsockname(listener, (struct sockaddr *)&addr, &addr_len) < 0) {
        die("getsockname");
    }
    printf("listening on port %d\n", ntohs(addr.sin_port));
    fflush(stdout);

    int fd = accept(listener, NULL, NULL);
    if (fd < 0) {
        die("accept");
    }
    tune(fd);
    unsigned char *buf = malloc(size);
    int measuring = 0;
    long long measured = 0, reported = -1;
    while (recv_full(fd, buf, size)) {
        int64_t ts = load_ts(buf);
        if (ts == MEASURE_START) {
            measuring = 1;
            measured = 0;
        } else if (ts == MEASURE_END) {
            measuring = 0;
            reported = measured;
        } else if (measuring) {
            measured++;
        }
        send_full(fd, buf, size);
    }
    close(fd);
    close(listener);
    if (reported < 0) {
        printf("stats missing\n");
    } else {
        printf("stats side=server messages=%lld\n", reported);
    }
    fflush(stdout);
    return 0;
}

static volatile int64_t *map_progress(const char *path)
{
    int fd = open(path, O_RDWR);
    if (fd < 0) {
        die("progress file");
    }
    void *p = mmap(NULL, sizeof(int64_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        die("mmap progress file");
    }
    close(fd);
    return (volatile int64_t *)p;
}

/* Writes the round-trip times for the harness to read. */
static void write_rtts(const char *rtt_path, const int64_t *rtts, long messages)
{
    FILE *out = fopen(rtt_path, "wb");
    if (out == NULL) {
        die("rtt file");
    }
    /* Little-endian on every machine this builds for (x86-64, aarch64). */
    if (fwrite(rtts, sizeof(int64_t), (size_t)messages, out) != (size_t)messages || fclose(out) != 0) {
        die("write rtt file");
    }
}

/* Sends a marker and waits for its echo; says which marker failed. */
static int echo_marker(int fd, unsigned char *buf, size_t size, int64_t marker, const char *which)
{
    store_ts(buf, marker);
    send_full(fd, buf, size);
    if (!recv_full(fd, buf, size) || load_ts(buf) != marker) {
        fprintf(stderr, "bad or missing echo of the %s marker\n", which);
        return 0;
    }
    return 1;
}

static int ping(int port, long warmup, long messages, size_t size, const char *rtt_path, const char *progress_path)
{
    volatile int64_t *progress = map_progress(progress_path);
    int64_t *rtts = malloc((size_t)messages * sizeof(int64_t));
    unsigned char *buf = malloc(size);
    if (rtts == NULL || buf == NULL) {
        die("malloc");
    }
    /* Touch every page now, so no page fault lands inside a measured round trip. */
    memset(rtts, 0, (size_t)messages * sizeof(int64_t));
    memset(buf, 'x', size);

    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons((uint16_t)port);
    if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
        die("connect");
    }
    tune(fd);

    for (long i = 0; i < warmup; i++) {
        int64_t sent = now_ns();
        store_ts(buf, sent);
        send_full(fd, buf, size);
        if (!recv_full(fd, buf, size) || load_ts(buf) != sent) {
            fprintf(stderr, "bad or missing echo in warm-up\n");
            return 2;
        }
        if ((i + 1) % PROGRESS_EVERY == 0) {
            *progress = i + 1;
        }
    }
    if (!echo_marker(fd, buf, size, MEASURE_START, "start")) {
        return 2;
    }
    for (long i = 0; i < messages; i++) {
        int64_t sent = now_ns();
        store_ts(buf, sent);
        send_full(fd, buf, size);
        if (!recv_full(fd, buf, size)) {
            fprintf(stderr, "server closed before the last echo\n");
            return 2;
        }
        int64_t now = now_ns();
        if (load_ts(buf) != sent) {
            fprintf(stderr, "echo of a different timestamp\n");
            return 2;
        }
        rtts[i] = now - sent;
        if ((i + 1) % PROGRESS_EVERY == 0) {
            *progress = warmup + i + 1;
        }
    }
    *progress = warmup + messages;
    if (!echo_marker(fd, buf, size, MEASURE_END, "end")) {
        return 2;
    }
    close(fd);

    write_rtts(rtt_path, rtts, messages);
    printf("stats side=client messages=%ld\n", messages);
    fflush(stdout);
    return 0;
}

static int udp_socket(void)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0) {
        die("socket");
    }
    if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0) {
        die("O_NONBLOCK");
    }
    return fd;
}

static int udp_serve(size_t size, long drop_every)
{
    int fd = udp_socket();
    struct sockaddr_in addr;
    socklen_t addr_len = sizeof addr;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
        die("bind");
    }
    if (getsockname(fd, (struct sockaddr *)&addr, &addr_len) < 0) {
        die("getsockname");
    }
    printf("listening on port %d\n", ntohs(addr.sin_port));
    fflush(stdout);

    /* One byte more than a message: a longer datagram shows as a wrong length instead of being cut. */
    unsigned char *buf = malloc(size + 1);
    int measuring = 0;
    long long measured = 0, reported = -1, received = 0;
    int64_t last_end = 0;
    for (;;) {
        struct sockaddr_in from;
        socklen_t from_len = sizeof from;
        ssize_t n = recvfrom(fd, buf, size + 1, 0, (struct sockaddr *)&from, &from_len);
        if (n < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                die("recvfrom");
            }
            if (reported >= 0 && now_ns() - last_end > LINGER_NS) {
                break;
            }
            continue;
        }
        if ((size_t)n != size) {
            fprintf(stderr, "datagram of %zd bytes, expected %zu\n", n, size);
            exit(2);
        }
        int64_t ts = load_ts(buf);
        if (ts == MEASURE_START) {
            measuring = 1;
            measured = 0;
        } else if (ts == MEASURE_END) {
            if (reported < 0) {
                reported = measured;
                printf("stats side=server messages=%lld\n", reported);
                fflush(stdout);
            }
            measuring = 0;
            last_end = now_ns();
        } else if (measuring) {
            measured++;
        }
        if (drop_every > 0 && ++received % drop_every == 0) {
            continue;
        }
        /* A full socket buffer drops the echo like the network would; the client sends again. */
        sendto(fd, buf, size, 0, (struct sockaddr *)&from, from_len);
    }
    close(fd);
    return 0;
}

/* Sends a datagram; a full socket buffer loses it, which the resend covers. */
static int64_t udp_send(int fd, unsigned char *buf, size_t size, int64_t value)
{
    store_ts(buf, value);
    if (send(fd, buf, size, 0) < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR
        && errno != ECONNREFUSED) {
        die("send");
    }
    return now_ns();
}

static int udp_ping(int port, long warmup, long messages, size_t size, const char *rtt_path,
                    const char *progress_path)
{
    volatile int64_t *progress = map_progress(progress_path);
    int64_t *rtts = malloc((size_t)messages * sizeof(int64_t));
    unsigned char *buf = malloc(size + 1);
    if (rtts == NULL || buf == NULL) {
        die("malloc");
    }
    memset(rtts, 0, (size_t)messages * sizeof(int64_t));
    memset(buf, 'x', size);

    int fd = udp_socket();
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons((uint16_t)port);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
        die("connect");
    }

    /* phase 0: warm-up, 1: start marker, 2: measured, 3: end marker */
    int phase = warmup > 0 ? 0 : 1;
    long done = 0;
    long long lost = 0, late = 0;
    int64_t sent = phase == 0 ? now_ns() : MEASURE_START;
    int64_t sent_at = udp_send(fd, buf, size, sent);
    for (;;) {
        ssize_t n = recv(fd, buf, size + 1, 0);
        if (n < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != ECONNREFUSED) {
                die("recv");
            }
            int64_t now = now_ns();
            if (now - sent_at > RESEND_AFTER_NS) {
                if (sent != MEASURE_START && sent != MEASURE_END) {
                    lost += phase == 2;
                    sent = now_ns();
                }
                sent_at = udp_send(fd, buf, size, sent);
            }
            continue;
        }
        int64_t now = now_ns();
        if ((size_t)n != size) {
            fprintf(stderr, "datagram of %zd bytes, expected %zu\n", n, size);
            return 2;
        }
        int64_t echoed = load_ts(buf);
        if (echoed != sent) {
            late++;
            continue;
        }
        if (phase == 1) {
            phase = 2;
            done = 0;
        } else if (phase == 3) {
            break;
        } else {
            if (phase == 2) {
                rtts[done] = now - sent;
            }
            done++;
            if (done % PROGRESS_EVERY == 0) {
                *progress = (phase == 2 ? warmup : 0) + done;
            }
            if (phase == 0 && done == warmup) {
                phase = 1;
            } else if (phase == 2 && done == messages) {
                phase = 3;
                *progress = warmup + messages;
            }
        }
        sent = phase == 1 ? MEASURE_START : phase == 3 ? MEASURE_END : now_ns();
        sent_at = udp_send(fd, buf, size, sent);
    }
    close(fd);

    write_rtts(rtt_path, rtts, messages);
    printf("stats side=client messages=%ld lost=%lld late=%lld\n", messages, lost, late);
    fflush(stdout);
    return 0;
}

static void *exit_when_harness_gone(void *unused)
{
    char c;
    (void)unused;
    while (read(STDIN_FILENO, &c, 1) > 0) {
    }
    _exit(5);
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t watcher;
    if (pthread_create(&watcher, NULL, exit_when_harness_gone, NULL) != 0) {
        die("pthread_create");
    }
    if (argc == 4 && strcmp(argv[1], "server") == 0) {
        alarm((unsigned)atoi(argv[3]));
        return serve((size_t)atol(argv[2]));
    }
    if (argc == 9 && strcmp(argv[1], "client") == 0) {
        alarm((unsigned)atoi(argv[8]));
        return ping(atoi(argv[2]), atol(argv[3]), atol(argv[4]), (size_t)atol(argv[5]), argv[6], argv[7]);
    }
    if ((argc == 4 || argc == 5) && strcmp(argv[1], "udp-server") == 0) {
        alarm((unsigned)atoi(argv[3]));
        return udp_serve((size_t)atol(argv[2]), argc == 5 ? atol(argv[4]) : 0);
    }
    if (argc == 9 && strcmp(argv[1], "udp-client") == 0) {
        alarm((unsigned)atoi(argv[8]));
        return udp_ping(atoi(argv[2]), atol(argv[3]), atol(argv[4]), (size_t)atol(argv[5]), argv[6], argv[7]);
    }
    fprintf(stderr, "usage: %s server SIZE MAX_SECONDS\n"
                    "       %s client PORT WARMUP MESSAGES SIZE RTT_FILE PROGRESS_FILE MAX_SECONDS\n"
                    "       %s udp-server SIZE MAX_SECONDS [DROP_EVERY]\n"
                    "       %s udp-client PORT WARMUP MESSAGES SIZE RTT_FILE PROGRESS_FILE MAX_SECONDS\n",
            argv[0], argv[0], argv[0], argv[0]);
    return 64;
}

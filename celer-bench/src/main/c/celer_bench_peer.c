/*
 * The C peer of Celer's TCP benchmark: the same ping-pong as the Java peers, with non-blocking sockets
 * polled in a tight loop, so its numbers are the floor this machine and kernel allow.
 *
 *   celer_bench_peer server SIZE MAX_SECONDS
 *   celer_bench_peer client PORT WARMUP MESSAGES SIZE RTT_FILE PROGRESS_FILE MAX_SECONDS
 *
 * The server prints "listening on port N" and, once the client is done, "stats side=server ...".
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
    store_ts(buf, MEASURE_START);
    send_full(fd, buf, size);
    if (!recv_full(fd, buf, size) || load_ts(buf) != MEASURE_START) {
        fprintf(stderr, "bad or missing echo of the start marker\n");
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
    store_ts(buf, MEASURE_END);
    send_full(fd, buf, size);
    if (!recv_full(fd, buf, size) || load_ts(buf) != MEASURE_END) {
        fprintf(stderr, "bad or missing echo of the end marker\n");
        return 2;
    }
    close(fd);

    FILE *out = fopen(rtt_path, "wb");
    if (out == NULL) {
        die("rtt file");
    }
    /* Little-endian on every machine this builds for (x86-64, aarch64). */
    if (fwrite(rtts, sizeof(int64_t), (size_t)messages, out) != (size_t)messages || fclose(out) != 0) {
        die("write rtt file");
    }
    printf("stats side=client messages=%ld\n", messages);
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
    fprintf(stderr, "usage: %s server SIZE MAX_SECONDS\n"
                    "       %s client PORT WARMUP MESSAGES SIZE RTT_FILE PROGRESS_FILE MAX_SECONDS\n",
            argv[0], argv[0]);
    return 64;
}

/*
 * rdkcloop is the bench's baseline for librdkafka itself: a bare
 * asynchronous produce loop against librdkafka's C API, linked with the
 * static library and header confluent-kafka-go bundles (the release
 * prodlab's librdkafka worker runs), so that bench/cost.sh can tell
 * confluent-kafka-go's own cost (bench/rdkloop, the same loop in Go) from
 * librdkafka's. Written for prodlab (no code of librdkafka's
 * rdkafka_performance is used). Like rdkloop and prodlab it loads the
 * topic's metadata before the clock starts, sends N records of S random
 * A-Z bytes (each record its own window of a 16 MiB letter pool, as
 * prodlab's text payload) after W warm-up records through the same
 * producer, waits while librdkafka's queue is full, and stops the clock
 * when every delivery report is in. It prints kgoloop's line for the
 * records after the warm-up:
 *
 *   N records sent, X records/sec (Y MB/sec), Z s elapsed, F failed
 *
 * Usage: rdkcloop BOOTSTRAP TOPIC RECORDS WARMUP RECORD_SIZE PROPS
 * (PROPS: librdkafka properties, k=v,...). Exit 2 on bad arguments, 1 on
 * a failed run.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rdkafka.h"

#define POOL_BYTES (16 << 20)

static int64_t done_count, failed_count;

/* on_delivery counts one delivery report (rd_kafka_poll's callback). */
static void on_delivery(rd_kafka_t *rk, const rd_kafka_message_t *m, void *opaque) {
  (void)rk;
  (void)opaque;
  done_count++;
  if (m->err) failed_count++;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* parse_count reads a non-negative whole number, or exits 2. */
static int64_t parse_count(const char *what, const char *s) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno || *s == '\0' || *end != '\0' || v < 0) {
    fprintf(stderr, "rdkcloop: %s must be a whole number, got '%s'\n", what, s);
    exit(2);
  }
  return (int64_t)v;
}

/* set_props applies "k=v,k=v" to conf, or exits 2. */
static void set_props(rd_kafka_conf_t *conf, const char *props) {
  char errstr[512];
  char *copy = strdup(props), *save = NULL;
  for (char *kv = strtok_r(copy, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(kv, '=');
    if (!eq) {
      fprintf(stderr, "rdkcloop: property '%s' is not k=v\n", kv);
      exit(2);
    }
    *eq = '\0';
    if (rd_kafka_conf_set(conf, kv, eq + 1, errstr, sizeof errstr) != RD_KAFKA_CONF_OK) {
      fprintf(stderr, "rdkcloop: %s\n", errstr);
      exit(2);
    }
  }
  free(copy);
}

int main(int argc, char **argv) {
  if (argc != 7) {
    fprintf(stderr, "usage: rdkcloop BOOTSTRAP TOPIC RECORDS WARMUP RECORD_SIZE PROPS\n");
    return 2;
  }
  const char *bootstrap = argv[1], *topic = argv[2];
  int64_t records = parse_count("RECORDS", argv[3]);
  int64_t warmup = parse_count("WARMUP", argv[4]);
  int64_t size = parse_count("RECORD_SIZE", argv[5]);
  if (records <= 0 || warmup >= records || size <= 0 || size > POOL_BYTES) {
    fprintf(stderr, "rdkcloop: want RECORDS > WARMUP >= 0 and 0 < RECORD_SIZE <= %d\n", POOL_BYTES);
    return 2;
  }
  char errstr[512];
  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  if (rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap, errstr, sizeof errstr) != RD_KAFKA_CONF_OK) {
    fprintf(stderr, "rdkcloop: %s\n", errstr);
    return 2;
  }
  set_props(conf, argv[6]);
  rd_kafka_conf_set_dr_msg_cb(conf, on_delivery);
  rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
  if (!rk) {
    fprintf(stderr, "rdkcloop: %s\n", errstr);
    return 2;
  }
  rd_kafka_topic_t *rkt = rd_kafka_topic_new(rk, topic, NULL);
  if (!rkt) {
    fprintf(stderr, "rdkcloop: topic %s: %s\n", topic, rd_kafka_err2str(rd_kafka_last_error()));
    return 1;
  }
  const struct rd_kafka_metadata *md;
  rd_kafka_resp_err_t err = rd_kafka_metadata(rk, 0, rkt, &md, 10000);
  if (err) {
    fprintf(stderr, "rdkcloop: connect: %s\n", rd_kafka_err2str(err));
    return 1;
  }
  rd_kafka_metadata_destroy(md);

  /* The letters: drawn once (xorshift64*), each record a window of its
   * own, consecutive records' windows disjoint. */
  int64_t windows = POOL_BYTES / size;
  char *pool = malloc((size_t)(windows * size));
  if (!pool) {
    fprintf(stderr, "rdkcloop: no memory for the letter pool\n");
    return 1;
  }
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int64_t i = 0; i < windows * size; i++) {
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    pool[i] = (char)('A' + (int)(((x * 0x2545F4914F6CDD1Dull) >> 32) % 26));
  }

  double start = now_s();
  for (int64_t i = 0; i < records; i++) {
    if (i == warmup) start = now_s();
    char *value = pool + (i % windows) * size;
    while (rd_kafka_produce(rkt, RD_KAFKA_PARTITION_UA, RD_KAFKA_MSG_F_COPY, value, (size_t)size, NULL, 0, NULL) == -1) {
      err = rd_kafka_last_error();
      if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
        fprintf(stderr, "rdkcloop: produce: %s\n", rd_kafka_err2str(err));
        return 1;
      }
      rd_kafka_poll(rk, 1); /* the queue is full: serve reports, wait */
    }
    rd_kafka_poll(rk, 0);
  }
  double deadline = now_s() + 600; /* librdkafka fails what it cannot send by message.timeout.ms */
  while (done_count < records && now_s() < deadline) rd_kafka_poll(rk, 100);
  if (done_count < records) {
    fprintf(stderr, "rdkcloop: %lld of %lld delivery reports after 600 s\n", (long long)done_count, (long long)records);
    return 1;
  }
  double elapsed = now_s() - start;
  int64_t measured = records - warmup, acked = measured - failed_count;
  printf("%lld records sent, %f records/sec (%.2f MB/sec), %.3f s elapsed, %lld failed\n",
         (long long)acked, (double)acked / elapsed, (double)acked * (double)size / elapsed / (1 << 20),
         elapsed, (long long)failed_count);
  rd_kafka_topic_destroy(rkt);
  rd_kafka_destroy(rk);
  free(pool);
  return failed_count > 0 ? 1 : 0;
}

//go:build librdkafka

package driver

/*
#include <stdio.h>
#include <stdlib.h>

// The few librdkafka functions prodlab calls itself, declared here rather
// than included: confluent-kafka-go links its bundled librdkafka into the
// same binary, and these are part of librdkafka's stable C API.
typedef struct rd_kafka_conf_s rd_kafka_conf_t;
typedef struct rd_kafka_topic_conf_s rd_kafka_topic_conf_t;
typedef struct rd_kafka_s rd_kafka_t;
rd_kafka_conf_t *rd_kafka_conf_new(void);
void rd_kafka_conf_destroy(rd_kafka_conf_t *conf);
int rd_kafka_conf_set(rd_kafka_conf_t *conf, const char *name, const char *value, char *errstr, size_t errstr_size);
const char **rd_kafka_conf_dump(rd_kafka_conf_t *conf, size_t *cntp);
const char **rd_kafka_topic_conf_dump(rd_kafka_topic_conf_t *conf, size_t *cntp);
void rd_kafka_conf_dump_free(const char **arr, size_t cnt);
rd_kafka_topic_conf_t *rd_kafka_conf_get_default_topic_conf(rd_kafka_conf_t *conf);
rd_kafka_t *rd_kafka_new(int type, rd_kafka_conf_t *conf, char *errstr, size_t errstr_size);
const rd_kafka_conf_t *rd_kafka_conf(rd_kafka_t *rk);
void rd_kafka_destroy(rd_kafka_t *rk);
void rd_kafka_conf_properties_show(FILE *fp);

// prodlab_properties_show writes librdkafka's property table into a
// malloc'ed string (the caller frees it).
static char *prodlab_properties_show(size_t *len) {
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);
	if (!fp) return NULL;
	rd_kafka_conf_properties_show(fp);
	fclose(fp);
	return buf;
}
*/
import "C"

import (
	"errors"
	"maps"
	"slices"
	"unsafe"
)

// rdProducer is librdkafka's rd_kafka_type_t for a producer.
const rdProducer = 0

// librdkafkaPropertiesTable is the bundled librdkafka's own table of every
// configuration property (CONFIGURATION.md's source).
func librdkafkaPropertiesTable() string {
	var n C.size_t
	p := C.prodlab_properties_show(&n)
	if p == nil {
		return ""
	}
	defer C.free(unsafe.Pointer(p))
	return C.GoStringN(p, C.int(n))
}

// librdkafkaResolve builds a producer configuration from conf the way the
// client does (each property set, then the producer created, which applies
// librdkafka's cross-property rules: idempotence and acks, in-flight caps,
// transactional.id) and reads back every property as the client would run
// with it, under librdkafka's canonical names. librdkafka's own error is
// returned for a property or combination it refuses. No connection is made.
func librdkafkaResolve(conf map[string]string) (map[string]string, error) {
	cf := C.rd_kafka_conf_new()
	var errbuf [512]C.char
	set := func(k, v string) error {
		ck, cv := C.CString(k), C.CString(v)
		defer C.free(unsafe.Pointer(ck))
		defer C.free(unsafe.Pointer(cv))
		if C.rd_kafka_conf_set(cf, ck, cv, &errbuf[0], C.size_t(len(errbuf))) != 0 {
			return errors.New(C.GoString(&errbuf[0]))
		}
		return nil
	}
	for _, k := range slices.Sorted(maps.Keys(conf)) {
		if err := set(k, conf[k]); err != nil {
			C.rd_kafka_conf_destroy(cf)
			return nil, err
		}
	}
	_ = set("log_level", "3") // no warning about the missing brokers
	rk := C.rd_kafka_new(rdProducer, cf, &errbuf[0], C.size_t(len(errbuf)))
	if rk == nil { // rd_kafka_new keeps the configuration only on success
		C.rd_kafka_conf_destroy(cf)
		return nil, errors.New(C.GoString(&errbuf[0]))
	}
	defer C.rd_kafka_destroy(rk)
	out := map[string]string{}
	final := (*C.rd_kafka_conf_t)(unsafe.Pointer(C.rd_kafka_conf(rk)))
	var n C.size_t
	arr := C.rd_kafka_conf_dump(final, &n)
	dumpPairs(arr, n, out)
	C.rd_kafka_conf_dump_free(arr, n)
	if tc := C.rd_kafka_conf_get_default_topic_conf(final); tc != nil {
		topic := map[string]string{}
		arr = C.rd_kafka_topic_conf_dump(tc, &n)
		dumpPairs(arr, n, topic)
		C.rd_kafka_conf_dump_free(arr, n)
		for k, v := range topic {
			// A topic-level "inherit" (compression.codec) runs with the
			// global value, which the global dump holds.
			if _, global := out[k]; global && v == "inherit" {
				continue
			}
			out[k] = v
		}
	}
	delete(out, "log_level")
	return out, nil
}

// dumpPairs copies a name, value, name, value… array into out.
func dumpPairs(arr **C.char, n C.size_t, out map[string]string) {
	s := unsafe.Slice(arr, int(n))
	for i := 0; i+1 < len(s); i += 2 {
		out[C.GoString(s[i])] = C.GoString(s[i+1])
	}
}

// JavaLoop is a bare Java producer loop: the official client, nothing else
// on the path of a record. bench/cost.sh runs it beside `prodlab perf
// --client java` to measure what prodlab's Java worker adds (the
// kafka-producer-perf-test comparison measures perf-test's own per-record
// work as well). Values are windows of a 16 MiB pool of letters, prepared
// before the first send; the callback only counts. It prints
// kafka-producer-perf-test's final line for the records after the warm-up.
//
// Usage: java -cp KAFKA_CLIENTS_CLASSPATH:DIR JavaLoop BOOTSTRAP TOPIC RECORDS WARMUP SIZE k=v,...
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

public final class JavaLoop {
    private static final int POOL_BYTES = 16 << 20;

    public static void main(String[] args) throws Exception {
        if (args.length != 6) {
            System.err.println("usage: JavaLoop BOOTSTRAP TOPIC RECORDS WARMUP SIZE k=v,...");
            System.exit(2);
        }
        String topic = args[1];
        long records = Long.parseLong(args[2]);
        long warmup = Long.parseLong(args[3]);
        int size = Integer.parseInt(args[4]);
        if (records <= warmup || warmup < 0 || size <= 0) {
            System.err.println("JavaLoop: RECORDS > WARMUP >= 0 and SIZE > 0 are required");
            System.exit(2);
        }
        Properties props = new Properties();
        props.put("bootstrap.servers", args[0]);
        for (String kv : args[5].split(",")) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                System.err.println("JavaLoop: property " + kv + " is not k=v");
                System.exit(2);
            }
            props.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        byte[][] values = pool(size);
        AtomicLong failed = new AtomicLong();
        long start = 0;
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            p.partitionsFor(topic); // metadata first, as the other loops connect first
            for (long i = 0; i < records; i++) {
                if (i == warmup) {
                    start = System.nanoTime();
                }
                p.send(new ProducerRecord<>(topic, values[(int) (i % values.length)]), (md, e) -> {
                    if (e != null) {
                        failed.incrementAndGet();
                    }
                });
            }
            p.flush();
            long ns = System.nanoTime() - start;
            long acked = records - warmup - failed.get();
            double s = ns / 1e9;
            System.out.printf(Locale.ROOT, "%d steady state records sent, %f records/sec (%.2f MB/sec), %.3f s elapsed, %d failed%n",
                    acked, acked / s, acked * (double) size / s / (1 << 20), s, failed.get());
        }
        if (failed.get() > 0) {
            System.exit(1);
        }
    }

    /** The 16 MiB pool of letters as size-byte values (bench/letters' pool, as arrays). */
    private static byte[][] pool(int size) {
        int n = Math.max(1, POOL_BYTES / size);
        byte[][] out = new byte[n][size];
        long x = 0x9E3779B97F4A7C15L;
        for (byte[] v : out) {
            for (int j = 0; j < size; j++) {
                x ^= x >>> 12;
                x ^= x << 25;
                x ^= x >>> 27;
                v[j] = (byte) ('A' + Long.remainderUnsigned((x * 0x2545F4914F6CDD1DL) >>> 32, 26));
            }
        }
        return out;
    }
}

package dev.prodlab.worker.trogdor;

import dev.prodlab.worker.Main;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * The worker's protocol loop (docs/worker-protocol.md) run inside this JVM: requests are
 * written to a pipe, answers are handed back line by line. It reuses the
 * worker exactly as `client: java` drives it (SharedRun, TrialRunner), so a
 * Trogdor trial and a direct one measure the same code.
 */
final class InProcessWorker implements AutoCloseable {
    private final RequestStream requests;
    private final Thread loop;

    private InProcessWorker(RequestStream requests, Thread loop) {
        this.requests = requests;
        this.loop = loop;
    }

    /** Starts the loop, sends one request line and passes every answer line to onLine. */
    static InProcessWorker start(String request, Consumer<String> onLine) {
        RequestStream requests = new RequestStream((request + "\n").getBytes(StandardCharsets.UTF_8));
        OutputStream out = new LineStream(onLine);
        Thread loop = new Thread(() -> Main.serveEmbedded(requests, out), "prodlab-trogdor-worker");
        loop.setDaemon(true);
        loop.start();
        return new InProcessWorker(requests, loop);
    }

    /** Ends the input: a running trial is cancelled, then the loop returns. */
    @Override
    public void close() throws IOException, InterruptedException {
        requests.close();
        loop.join(30_000);
    }

    /** The request line, then nothing until closed, then end of input. */
    private static final class RequestStream extends InputStream {
        private final byte[] request;
        private final CountDownLatch closed = new CountDownLatch(1);
        private int pos;

        RequestStream(byte[] request) {
            this.request = request;
        }

        @Override
        public int read() throws IOException {
            if (pos < request.length) {
                return request[pos++] & 0xff;
            }
            try {
                closed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
            return -1;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (pos < request.length) {
                int n = Math.min(len, request.length - pos);
                System.arraycopy(request, pos, b, off, n);
                pos += n;
                return n;
            }
            int c = read();
            if (c < 0) {
                return -1;
            }
            b[off] = (byte) c;
            return 1;
        }

        @Override
        public void close() {
            closed.countDown();
        }
    }

    /** An OutputStream that cuts what it receives into lines. */
    private static final class LineStream extends OutputStream {
        private final Consumer<String> onLine;
        private final ByteArrayOutputStream buf = new ByteArrayOutputStream();

        LineStream(Consumer<String> onLine) {
            this.onLine = onLine;
        }

        @Override
        public synchronized void write(int b) {
            if (b == '\n') {
                String line = buf.toString(StandardCharsets.UTF_8);
                buf.reset();
                if (!line.isBlank()) {
                    onLine.accept(line);
                }
                return;
            }
            buf.write(b);
        }
    }
}

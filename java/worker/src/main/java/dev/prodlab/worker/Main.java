package dev.prodlab.worker;

import com.google.gson.JsonObject;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The prodlab worker: a long-lived JVM that runs producer trials for one
 * kafka-clients version, driven by line-delimited JSON on stdin/stdout
 * (docs/worker-protocol.md). Logs go to stderr; System.out is redirected there too so
 * that nothing but protocol lines ever reaches stdout.
 */
public final class Main {
    /** Op of a queued unparsable line; its "error" is sent back as an error message. */
    private static final String BAD_LINE = "_bad_line";
    /** End of input marker in the request queue. */
    private static final JsonObject EOF = new JsonObject();

    private final Protocol out;
    private final BlockingQueue<JsonObject> requests = new LinkedBlockingQueue<>();
    /** The trial's runners (one per producer) while a run is in progress; empty otherwise. */
    private volatile List<TrialRunner> current = List.of();

    Main(OutputStream protocolOut) {
        this.out = new Protocol(protocolOut);
    }

    /**
     * Serves the protocol from in to out inside the calling JVM (a Trogdor
     * agent's task runs the worker this way) and returns the exit code when
     * in ends; the same loop as main's.
     */
    public static int serveEmbedded(InputStream in, OutputStream out) {
        return new Main(out).serve(in);
    }

    /** The argument that makes the worker print its client's ConfigDef and exit. */
    static final String CONFIG_DEF = "configdef";

    public static void main(String[] args) {
        OutputStream stdout = new FileOutputStream(FileDescriptor.out);
        System.setOut(System.err);
        if (args.length > 0) {
            System.exit(command(args, stdout));
        }
        int code = new Main(stdout).serve(System.in);
        System.exit(code);
    }

    /**
     * Runs a one-shot command instead of the protocol: "configdef" prints one
     * JSON object, {"client":VERSION,"types":{property:TYPE,...}}, the
     * producer ConfigDef of the kafka-clients on the class path, so that
     * prodlab can check which properties the client types as passwords.
     * Returns the exit code (2 for an unknown command).
     */
    static int command(String[] args, OutputStream stdout) {
        if (args.length != 1 || !args[0].equals(CONFIG_DEF)) {
            System.err.println("usage: java -cp ... " + Main.class.getName() + " [" + CONFIG_DEF + "]");
            return 2;
        }
        new Protocol(stdout).send(Protocol.configDef(ClientInfo.version(), ClientInfo.producerConfigTypes()));
        return 0;
    }

    /**
     * Serves requests from in until exit or end of input; returns the exit
     * code. A reader thread feeds a queue so that a cancel can reach a
     * running trial.
     */
    int serve(InputStream in) {
        Thread reader = new Thread(() -> readLoop(in), "prodlab-stdin");
        reader.setDaemon(true);
        reader.start();
        while (true) {
            JsonObject req;
            try {
                req = requests.take();
            } catch (InterruptedException e) {
                return 1;
            }
            if (req == EOF) {
                return 0;
            }
            String op = req.has("op") && req.get("op").isJsonPrimitive() ? req.get("op").getAsString() : "";
            switch (op) {
                case "hello":
                    out.send(Protocol.hello(TrialRunner.clientVersion(), System.getProperty("java.version")));
                    break;
                case "run":
                    out.send(run(req));
                    break;
                case "exit":
                    return 0;
                case "cancel":
                    break; // nothing is running
                case BAD_LINE:
                    out.send(Protocol.error(req.get("error").getAsString()));
                    break;
                default:
                    out.send(Protocol.error("unknown op \"" + op + "\""));
            }
        }
    }

    private JsonObject run(JsonObject msg) {
        if (msg.has("producers")) {
            return SharedRun.run(msg, out, rs -> current = rs);
        }
        RunRequest req;
        try {
            req = RunRequest.parse(msg);
        } catch (RuntimeException e) {
            long id = 0;
            try {
                id = msg.has("id") ? msg.get("id").getAsLong() : 0;
            } catch (RuntimeException ignored) {
                // keep 0
            }
            return Protocol.failure(id, "bad run request: " + e.getMessage(), "this is a prodlab bug");
        }
        TrialRunner r = new TrialRunner(req, out);
        current = List.of(r);
        try {
            return r.run();
        } finally {
            current = List.of();
        }
    }

    /** Reads request lines; cancel and EOF act at once on a running trial. */
    private void readLoop(InputStream in) {
        try (BufferedReader br = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = br.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                JsonObject req;
                try {
                    req = Protocol.parse(line);
                } catch (RuntimeException e) {
                    // Answered in order by the serving loop.
                    req = Protocol.error("bad request line: " + e.getMessage());
                    req.addProperty("op", BAD_LINE);
                }
                String op = req.has("op") && req.get("op").isJsonPrimitive() ? req.get("op").getAsString() : "";
                if (op.equals("cancel") || op.equals("exit")) {
                    current.forEach(TrialRunner::cancel);
                }
                requests.add(req);
            }
        } catch (IOException e) {
            System.err.println("prodlab-worker: reading stdin: " + e);
        }
        current.forEach(TrialRunner::cancel); // nobody is listening any more
        requests.add(EOF);
    }
}

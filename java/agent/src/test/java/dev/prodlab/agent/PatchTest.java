package dev.prodlab.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Rewrites the real classes of the supported releases (their jars copied
 * to target/kafka-jars by the build) and checks the constant became the setting; classes with
 * another layout are refused.
 */
class PatchTest {
    /** Where the build copied the releases' jars (pom.xml, maven-dependency-plugin). */
    static final Path JARS = Path.of(System.getProperty("prodlab.kafkajars", "target/kafka-jars"));

    static Stream<Arguments> releases() {
        return Stream.of("3.9.1", "4.4.0").flatMap(v -> Stream.of(
                Arguments.of("kafka-storage", v, Agent.patchFor("broker", "20"), 20),
                Arguments.of("kafka-storage", v, Agent.patchFor("broker", "1000"), 1000),
                Arguments.of("kafka-clients", v, Agent.patchFor("client", null), Integer.MAX_VALUE)));
    }

    static byte[] classFrom(String artifact, String version, String owner) throws IOException {
        Path jar = JARS.resolve(artifact + "-" + version + ".jar");
        if (!Files.exists(jar)) {
            throw new IOException("missing " + jar + ": run the tests with Maven (mvn test), which copies it there");
        }
        try (JarFile jf = new JarFile(jar.toFile()); InputStream in = jf.getInputStream(jf.getEntry(owner + ".class"))) {
            return in.readAllBytes();
        }
    }

    /** The int constants pushed by the named method, in order. */
    static List<Object> pushes(byte[] cls, String method) {
        List<Object> out = new ArrayList<>();
        new ClassReader(cls).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int a, String name, String d, String s, String[] e) {
                if (!name.equals(method)) {
                    return null;
                }
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitInsn(int op) {
                        if (op >= Opcodes.ICONST_M1 && op <= Opcodes.ICONST_5) {
                            out.add(op - Opcodes.ICONST_0);
                        }
                    }

                    @Override
                    public void visitIntInsn(int op, int operand) {
                        if (op == Opcodes.BIPUSH || op == Opcodes.SIPUSH) {
                            out.add(operand);
                        }
                    }

                    @Override
                    public void visitLdcInsn(Object c) {
                        if (c instanceof Integer) {
                            out.add(c);
                        }
                    }
                };
            }
        }, 0);
        return out;
    }

    @ParameterizedTest(name = "{0} {1} -> {3}")
    @MethodSource("releases")
    void rewritesTheRealClass(String artifact, String version, Patch patch, int want) throws IOException {
        byte[] before = classFrom(artifact, version, patch.owner);
        assertTrue(pushes(before, patch.method).contains(5), "stock class pushes 5");
        byte[] after = patch.apply(before, artifact + "-" + version + ".jar");
        List<Object> got = pushes(after, patch.method);
        assertTrue(!got.contains(5), "5 is gone: " + got);
        assertEquals(1, got.stream().filter(o -> o.equals(want)).count(), "one push of " + want + ": " + got);
        new ClassReader(after); // still a parseable class
    }

    /** The rewritten broker class really keeps N batches: run it on a deque. */
    @Test
    void rewrittenMethodKeepsNBatches() throws Exception {
        byte[] cls = Patch.class.getClassLoader().getResourceAsStream("dev/prodlab/agent/Fixture.class").readAllBytes();
        Patch p = new Patch("dev/prodlab/agent/Fixture", "add", null, 20);
        byte[] out = p.apply(cls, "fixture");
        Class<?> c = new ClassLoader(null) {
            Class<?> define() {
                return defineClass("dev.prodlab.agent.Fixture", out, 0, out.length);
            }
        }.define();
        Object f = c.getConstructor().newInstance();
        for (int i = 0; i < 50; i++) {
            c.getMethod("add", Object.class).invoke(f, i);
        }
        assertEquals(20, c.getMethod("size").invoke(f));
        Object stock = new Fixture();
        for (int i = 0; i < 50; i++) {
            ((Fixture) stock).add(i);
        }
        assertEquals(5, ((Fixture) stock).size(), "the check can fail: stock keeps 5");
    }

    /** A class whose method holds zero or two 5s, or lacks the method, is refused, naming the release. */
    @ParameterizedTest(name = "{0} fives, method {1}")
    @MethodSource("layouts")
    void refusesUnknownLayouts(int fives, String method, String want) {
        byte[] cls = synthetic(fives, method);
        Patch p = new Patch("x/Odd", "addBatchMetadata", null, 20);
        RefusedException e = assertThrows(RefusedException.class, () -> p.apply(cls, "kafka-storage-9.9.9.jar"));
        assertTrue(e.getMessage().contains("kafka-storage-9.9.9.jar"), e.getMessage());
        assertTrue(e.getMessage().contains(want), e.getMessage());
    }

    static Stream<Arguments> layouts() {
        return Stream.of(
                Arguments.of(0, "addBatchMetadata", "0 uses of the constant 5"),
                Arguments.of(2, "addBatchMetadata", "2 uses of the constant 5"),
                Arguments.of(1, "somethingElse", "found 0 methods"));
    }

    @Test
    void refusesAClientClassWithoutItsMarker() {
        byte[] cls = synthetic(1, "postProcessAndValidateIdempotenceConfigs");
        Patch p = new Patch("x/Odd", "postProcessAndValidateIdempotenceConfigs", Agent.CLIENT_MARKER, Integer.MAX_VALUE);
        RefusedException e = assertThrows(RefusedException.class, () -> p.apply(cls, "kafka-clients-9.9.9.jar"));
        assertTrue(e.getMessage().contains("no longer loads"), e.getMessage());
    }

    @Test
    void refusesAnotherClass() {
        Patch p = new Patch(Agent.BROKER_CLASS, "addBatchMetadata", null, 20);
        assertThrows(RefusedException.class, () -> p.apply(synthetic(1, "addBatchMetadata"), "r"));
    }

    @ParameterizedTest
    @MethodSource("badRetains")
    void refusesBadRetain(String retain, String want) {
        RefusedException e = assertThrows(RefusedException.class, () -> Agent.patchFor("broker", retain));
        assertTrue(e.getMessage().contains(want), e.getMessage());
    }

    static Stream<Arguments> badRetains() {
        return Stream.of(
                Arguments.of(null, "needs -Dprodlab.kip1269.retain"),
                Arguments.of("4", "below KIP-1269's minimum of 5"),
                Arguments.of("x", "not an integer"));
    }

    @Test
    void refusesUnknownMode() {
        assertThrows(RefusedException.class, () -> Agent.patchFor("server", "20"));
    }

    @Test
    void namesTheReleaseByJar() throws Exception {
        assertEquals("kafka-storage-4.4.0.jar",
                Agent.release(new java.net.URL("jar:file:/k/libs/kafka-storage-4.4.0.jar!/org/X.class")));
        assertEquals("a release without this class", Agent.release(null));
    }

    /** x/Odd with a static void method pushing 5 {@code fives} times. */
    static byte[] synthetic(int fives, String method) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "x/Odd", null, "java/lang/Object", null);
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_STATIC, method, "()V", null, null);
        mv.visitCode();
        for (int i = 0; i < fives; i++) {
            mv.visitInsn(Opcodes.ICONST_5);
            mv.visitInsn(Opcodes.POP);
        }
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }
}

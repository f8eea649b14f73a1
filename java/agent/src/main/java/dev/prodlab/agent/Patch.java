package dev.prodlab.agent;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * One verified rewrite: in method {@code method} of class {@code owner}, the
 * single {@code ICONST_5} (a compile-time constant javac inlined, such as
 * ProducerStateEntry.NUM_BATCHES_TO_RETAIN) is replaced by a push of
 * {@code value}. Before anything changes, the method must exist exactly once,
 * hold exactly one ICONST_5 and, when {@code marker} is set, load that string
 * constant: anything else is a release whose layout the agent does not know,
 * and {@link #apply} refuses it rather than patch blindly.
 */
public final class Patch {
    /** Internal name of the class to rewrite, e.g. org/apache/kafka/.../ProducerStateEntry. */
    public final String owner;
    /** Name of the method holding the constant. */
    public final String method;
    /** A string constant the method must load, or null for no such check. */
    public final String marker;
    /** What ICONST_5 becomes. */
    public final int value;

    public Patch(String owner, String method, String marker, int value) {
        this.owner = owner;
        this.method = method;
        this.marker = marker;
        this.value = value;
    }

    /** What the method looked like: counted before anything is rewritten. */
    static final class Survey {
        int methods;
        int fives;
        boolean marker;
    }

    /**
     * Returns the rewritten class, or throws {@link RefusedException} naming
     * {@code release} when the class does not have the expected layout.
     */
    public byte[] apply(byte[] classBytes, String release) {
        ClassReader reader = new ClassReader(classBytes);
        if (!reader.getClassName().equals(owner)) {
            throw refuse(release, "class is " + reader.getClassName());
        }
        Survey s = survey(reader);
        if (s.methods != 1) {
            throw refuse(release, "found " + s.methods + " methods named " + method + ", want 1");
        }
        if (s.fives != 1) {
            throw refuse(release, method + " has " + s.fives + " uses of the constant 5, want exactly 1");
        }
        if (marker != null && !s.marker) {
            throw refuse(release, method + " no longer loads \"" + marker + "\"");
        }
        ClassWriter writer = new ClassWriter(reader, 0);
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exc) {
                MethodVisitor mv = super.visitMethod(access, name, desc, sig, exc);
                return name.equals(method) ? new Replacer(mv, value) : mv;
            }
        }, 0);
        return writer.toByteArray();
    }

    /** Counts the methods named {@link #method}, their ICONST_5s and the marker. */
    Survey survey(ClassReader reader) {
        Survey s = new Survey();
        reader.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exc) {
                if (!name.equals(method)) {
                    return null;
                }
                s.methods++;
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitInsn(int opcode) {
                        if (opcode == Opcodes.ICONST_5) {
                            s.fives++;
                        }
                    }

                    @Override
                    public void visitLdcInsn(Object cst) {
                        if (cst instanceof String && ((String) cst).contains(marker == null ? "\0" : marker)) {
                            s.marker = true;
                        }
                    }
                };
            }
        }, ClassReader.SKIP_DEBUG);
        return s;
    }

    private RefusedException refuse(String release, String why) {
        return new RefusedException("prodlab-agent: refusing to patch " + owner.replace('/', '.') + "." + method
                + " in " + release + ": " + why + " (a layout this agent does not recognise)");
    }

    /** Replaces ICONST_5 by the smallest instruction that pushes the new value. */
    private static final class Replacer extends MethodVisitor {
        private final int value;

        Replacer(MethodVisitor mv, int value) {
            super(Opcodes.ASM9, mv);
            this.value = value;
        }

        @Override
        public void visitInsn(int opcode) {
            if (opcode != Opcodes.ICONST_5) {
                super.visitInsn(opcode);
            } else if (value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE) {
                super.visitIntInsn(Opcodes.BIPUSH, value);
            } else if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
                super.visitIntInsn(Opcodes.SIPUSH, value);
            } else {
                super.visitLdcInsn(value);
            }
        }
    }
}

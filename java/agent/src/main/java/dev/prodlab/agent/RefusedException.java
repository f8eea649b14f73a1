package dev.prodlab.agent;

/** A class or setting the agent will not patch; the message names the release and why. */
public final class RefusedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RefusedException(String message) {
        super(message);
    }
}

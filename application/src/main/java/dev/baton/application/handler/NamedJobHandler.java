package dev.baton.application.handler;

/**
 * A handler that carries its own name, so that it can be found with {@link java.util.ServiceLoader} (list the class
 * in {@code META-INF/services/dev.baton.application.handler.NamedJobHandler}).
 */
public interface NamedJobHandler extends JobHandler {

    /** The name a worker selects it by (a queue's handler, or a job's type). */
    String name();
}

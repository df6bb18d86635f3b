package dev.baton.bootstrap.jobs;

import dev.baton.application.handler.JobContext;
import dev.baton.application.handler.NamedJobHandler;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.util.Objects;
import java.util.Optional;

/**
 * A kind of job: a stable wire name paired with the record that carries its arguments, e.g.
 * {@code JobType.of("send-receipt", SendReceipt.class)}. On the stream the name is the entry's {@code type} and the
 * record its JSON {@code payload}, so producers in other languages keep writing plain fields; in Java, producers
 * enqueue the record and the handler registered for the type receives it (docs/HANDLERS.md, "Typed jobs").
 *
 * @param name    the wire name: the entry's {@code type}, and the name of the handler that runs it
 * @param payload the record (or any class Jackson binds) that the payload's JSON maps to
 */
public record JobType<T>(String name, Class<T> payload) {
    public JobType {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(payload, "payload");
        if (name.isBlank()) {
            throw new InvalidValueException("a job type needs a name, got '" + name + "'");
        }
    }

    public static <T> JobType<T> of(String name, Class<T> payload) {
        return new JobType<>(name, payload);
    }

    /** A job of this type due now: {@code type} its name, the record as JSON; {@code after}/{@code at} delay it. */
    public EnqueueJobUseCase.Command command(QueueName queue, JobId id, T job) {
        String json = JsonPayloads.write(Objects.requireNonNull(job, "job"));
        return EnqueueJobUseCase.Command.now(queue, id, json).withType(name);
    }

    /**
     * The handler of this type, named after it: binds the payload to the record, then calls {@code handler}. As a
     * Spring bean it is registered under the type's name.
     */
    public NamedJobHandler handledBy(TypedJobHandler<T> handler) {
        Objects.requireNonNull(handler, "handler");
        return new NamedJobHandler() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Optional<String> handle(JobContext context) throws Exception {
                return handler.handle(JsonPayloads.read(context.job().payload(), payload), context);
            }
        };
    }
}

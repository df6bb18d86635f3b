package dev.baton.adapters.redis;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterId;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.ErrorTrace;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import dev.baton.domain.JobId;
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.QueueName;
import dev.baton.domain.StoredDeadLetter;
import dev.baton.domain.Uniqueness;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The wire protocol, in one place: jobs to stream fields and back, delayed-set members, dead-letter fields.
 * Documented for other clients in docs/REDIS.md.
 */
final class WireMapping {
    static final String JOB_ID = "job_id";
    static final String PAYLOAD = "payload";
    static final String ATTEMPT = "attempt";
    static final String TYPE = "type";
    static final String ENQUEUED_AT = "enqueued_at";
    static final String LAST_ERROR_TYPE = "last_error_type";
    static final String LAST_ERROR_MESSAGE = "last_error_message";
    static final String LAST_ERROR_RETRYABLE = "last_error_retryable";

    static final String DEAD_REASON = "dead_reason";
    static final String DEAD_ERROR_TYPE = "dead_error_type";
    static final String DEAD_ERROR_MESSAGE = "dead_error_message";
    static final String DEAD_ERROR_RETRYABLE = "dead_error_retryable";
    static final String DEAD_ERROR_TRACE = "dead_error_trace";
    static final String DEAD_ATTEMPTS = "dead_attempts";
    static final String DEAD_AT = "dead_at";
    static final String DEAD_ORIGINAL_ID = "dead_original_id";

    private static final Set<String> JOB_FIELDS = Set.of(JOB_ID, PAYLOAD, ATTEMPT, TYPE, ENQUEUED_AT,
            LAST_ERROR_TYPE, LAST_ERROR_MESSAGE, LAST_ERROR_RETRYABLE);
    private static final Set<String> DEAD_FIELDS = Set.of(DEAD_REASON, DEAD_ERROR_TYPE, DEAD_ERROR_MESSAGE,
            DEAD_ERROR_RETRYABLE, DEAD_ERROR_TRACE, DEAD_ATTEMPTS, DEAD_AT, DEAD_ORIGINAL_ID);
    private static final int QUOTE_LIMIT = 80;

    private final PayloadLimit payloadLimit;

    WireMapping(PayloadLimit payloadLimit) {
        this.payloadLimit = payloadLimit;
    }

    /** A stream entry read as a job, or why it is not one. */
    sealed interface Entry {
        record Valid(Job job) implements Entry {
        }

        record Invalid(Map<String, String> fields, String problem) implements Entry {
        }
    }

    /**
     * The fields a producer writes: checked, so that a job cannot be published that workers would reject, nor one
     * that names a uniqueness key without holding it.
     */
    List<String> publishedFields(Job job) {
        if (Uniqueness.carriedBy(job).isPresent()) {
            throw new InvalidValueException("job " + job.id() + " carries a uniqueness key: publish it as unique");
        }
        return checkedFields(job);
    }

    /** The fields a producer writes for a job that carries a uniqueness key (see {@link #publishedFields}). */
    List<String> uniqueFields(Job job) {
        if (Uniqueness.carriedBy(job).isEmpty()) {
            throw new InvalidValueException("job " + job.id() + " carries no uniqueness key");
        }
        if (job.headers().containsKey(QueueLayout.PARTITION_KEY)) {
            throw new InvalidValueException("a unique job goes to the partition of its uniqueness key, so job "
                    + job.id() + " cannot have a '" + QueueLayout.PARTITION_KEY + "' header");
        }
        return checkedFields(job);
    }

    private List<String> checkedFields(Job job) {
        payloadLimit.check(job.payload());
        for (String header : job.headers().keySet()) {
            if (JOB_FIELDS.contains(header) || DEAD_FIELDS.contains(header)) {
                throw new InvalidValueException("header '" + header + "' is a field of Baton's wire protocol");
            }
        }
        return fields(job);
    }

    /** A job's stream fields, in XADD order (headers sorted, so equal jobs encode equally). */
    List<String> fields(Job job) {
        List<String> fields = new ArrayList<>(16);
        add(fields, JOB_ID, job.id().value());
        add(fields, PAYLOAD, job.payload());
        add(fields, ATTEMPT, Integer.toString(job.attempt()));
        job.type().ifPresent(type -> add(fields, TYPE, type));
        add(fields, ENQUEUED_AT, Long.toString(job.enqueuedAt().toEpochMilli()));
        job.lastError().ifPresent(error -> {
            add(fields, LAST_ERROR_TYPE, error.type());
            add(fields, LAST_ERROR_MESSAGE, error.message());
            add(fields, LAST_ERROR_RETRYABLE, Boolean.toString(error.retryable()));
        });
        new TreeMap<>(job.headers()).forEach((name, value) -> {
            if (!JOB_FIELDS.contains(name) && !DEAD_FIELDS.contains(name)) {
                add(fields, name, value);
            }
        });
        return fields;
    }

    /** A delayed-set member: a JSON array of a unique token, then the job's fields (see promote_due.lua). */
    String delayedMember(String token, List<String> fields) {
        List<String> values = new ArrayList<>();
        values.add(token);
        values.addAll(fields);
        return JsonStrings.encode(values);
    }

    /** A delayed member read back as a job due at {@code due}. */
    Entry delayedJob(QueueName queue, String member, Instant due) {
        List<String> values;
        try {
            values = JsonStrings.decode(member);
        } catch (IllegalArgumentException e) {
            return new Entry.Invalid(Map.of("delayed_member", member), e.getMessage());
        }
        if (values.size() % 2 != 1) {
            return new Entry.Invalid(Map.of("delayed_member", member), "delayed member has an odd field list");
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 1; i < values.size(); i += 2) {
            fields.put(values.get(i), values.get(i + 1));
        }
        Entry entry = job(queue, due, fields);
        return entry instanceof Entry.Valid valid ? new Entry.Valid(valid.job().notBefore(due)) : entry;
    }

    /**
     * A stream entry as leased under {@code id}: a job, or a malformed entry with its fields shown safely.
     *
     * @param isolated the entry's isolated deliveries so far
     */
    Delivery delivery(QueueName queue, String entryId, DeliveryId id, long deliveryCount, long isolated,
                      List<byte[]> rawFields) {
        Entry entry = entry(queue, entryId, rawFields);
        if (entry instanceof Entry.Valid valid) {
            return new Delivery.Leased(queue, id, deliveryCount, valid.job(), isolated);
        }
        Entry.Invalid invalid = (Entry.Invalid) entry;
        return new Delivery.Malformed(queue, id, deliveryCount, invalid.fields(), invalid.problem());
    }

    /** Reads a stream entry's raw fields (name, value, name, value...) strictly. */
    Entry entry(QueueName queue, String entryId, List<byte[]> rawFields) {
        Map<String, String> fields = new LinkedHashMap<>();
        String problem = null;
        for (int i = 0; i + 1 < rawFields.size(); i += 2) {
            byte[] name = rawFields.get(i);
            byte[] value = rawFields.get(i + 1);
            String shownName = Utf8.escaped(name);
            if (problem == null && PAYLOAD.equals(shownName) && value.length > payloadLimit.maxBytes()) {
                problem = oversized(value.length);
            }
            if (problem == null && (Utf8.strict(name).isEmpty() || Utf8.strict(value).isEmpty())) {
                problem = "field '" + quote(shownName) + "' is not valid UTF-8";
            }
            fields.put(shownName, Utf8.escaped(value));
        }
        if (problem != null) {
            return new Entry.Invalid(fields, problem);
        }
        return job(queue, Instant.ofEpochMilli(EntryId.parse(entryId).ms()), fields);
    }

    private Entry job(QueueName queue, Instant defaultEnqueuedAt, Map<String, String> fields) {
        String id = fields.get(JOB_ID);
        String payload = fields.get(PAYLOAD);
        if (id == null || payload == null) {
            return new Entry.Invalid(fields, "missing field " + (id == null ? JOB_ID : PAYLOAD));
        }
        if (!payloadLimit.admits(payload)) {
            return new Entry.Invalid(fields, oversized(Utf8.bytes(payload).length));
        }
        try {
            int attempt = count(fields, ATTEMPT);
            Instant enqueuedAt = fields.containsKey(ENQUEUED_AT)
                    ? Instant.ofEpochMilli(number(fields, ENQUEUED_AT, 0L))
                    : defaultEnqueuedAt;
            Optional<JobError> lastError = Optional.ofNullable(fields.get(LAST_ERROR_TYPE))
                    .map(type -> new JobError(type, fields.get(LAST_ERROR_MESSAGE),
                            !"false".equals(fields.get(LAST_ERROR_RETRYABLE))));
            Map<String, String> headers = new LinkedHashMap<>(fields);
            headers.keySet().removeAll(JOB_FIELDS);
            return new Entry.Valid(new Job(JobId.of(id), queue, Optional.ofNullable(fields.get(TYPE)), payload,
                    attempt, enqueuedAt, Optional.empty(), lastError, headers));
        } catch (InvalidValueException e) {
            return new Entry.Invalid(fields, e.getMessage());
        }
    }

    private String oversized(int bytes) {
        return "payload has " + bytes + " bytes, more than the limit of " + payloadLimit.maxBytes();
    }

    private static int count(Map<String, String> fields, String name) {
        long value = number(fields, name, 0L);
        if (value > Integer.MAX_VALUE) {
            throw new InvalidValueException(name + " '" + quote(fields.get(name)) + "' is too large");
        }
        return (int) value;
    }

    private static long number(Map<String, String> fields, String name, long absent) {
        String text = fields.get(name);
        if (text == null) {
            return absent;
        }
        try {
            long value = Long.parseLong(text);
            if (value >= 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below, with the field's name
        }
        throw new InvalidValueException(name + " '" + quote(text) + "' is not a whole number >= 0");
    }

    /** The dead-letter entry's fields after the job's own: why and when it died, and where it came from. */
    List<String> deadFields(DeadLetter letter, String originalId) {
        List<String> fields = new ArrayList<>(16);
        add(fields, DEAD_REASON, letter.reason().name());
        add(fields, DEAD_ERROR_TYPE, letter.lastError().type());
        add(fields, DEAD_ERROR_MESSAGE, letter.lastError().message());
        add(fields, DEAD_ERROR_RETRYABLE, Boolean.toString(letter.lastError().retryable()));
        letter.trace().ifPresent(trace -> add(fields, DEAD_ERROR_TRACE, trace.text()));
        add(fields, DEAD_ATTEMPTS, Integer.toString(letter.attempts()));
        add(fields, DEAD_AT, Long.toString(letter.deadAt().toEpochMilli()));
        add(fields, DEAD_ORIGINAL_ID, originalId);
        return fields;
    }

    /** The job's fields of a dead letter: a valid job's wire fields, a malformed entry's raw fields. */
    List<String> deadJobFields(DeadLetter letter) {
        if (letter.job().isPresent()) {
            return fields(letter.job().get());
        }
        List<String> fields = new ArrayList<>();
        letter.rawFields().forEach((name, value) -> {
            if (!DEAD_FIELDS.contains(name)) {
                add(fields, name, value);
            }
        });
        return fields;
    }

    StoredDeadLetter deadLetter(QueueName queue, String deadId, List<byte[]> rawFields) {
        Map<String, String> dead = new LinkedHashMap<>();
        List<byte[]> jobFields = new ArrayList<>();
        for (int i = 0; i + 1 < rawFields.size(); i += 2) {
            String name = Utf8.escaped(rawFields.get(i));
            if (DEAD_FIELDS.contains(name)) {
                dead.put(name, Utf8.escaped(rawFields.get(i + 1)));
            } else {
                jobFields.add(rawFields.get(i));
                jobFields.add(rawFields.get(i + 1));
            }
        }
        String originalId = dead.getOrDefault(DEAD_ORIGINAL_ID, deadId);
        // a letter from no stream entry (an outbox row's outbox:<position>) has no entry time: its own id's stands in
        Entry entry = entry(queue, EntryId.isEntryId(originalId) ? originalId : deadId, jobFields);
        Optional<DeadLetterReason> reason = reason(dead.get(DEAD_REASON));
        JobError error = new JobError(dead.getOrDefault(DEAD_ERROR_TYPE, "unknown"),
                dead.get(DEAD_ERROR_MESSAGE), !"false".equals(dead.get(DEAD_ERROR_RETRYABLE)));
        int attempts;
        Instant deadAt;
        try {
            attempts = count(dead, DEAD_ATTEMPTS);
            deadAt = Instant.ofEpochMilli(number(dead, DEAD_AT, EntryId.parse(deadId).ms()));
        } catch (InvalidValueException e) {
            attempts = 0;
            deadAt = Instant.ofEpochMilli(EntryId.parse(deadId).ms());
        }
        // optional: letters written before traces were kept, or by other clients, have none
        Optional<ErrorTrace> trace = Optional.ofNullable(dead.get(DEAD_ERROR_TRACE)).map(ErrorTrace::new);
        DeadLetter letter;
        if (reason.isPresent() && reason.get() != DeadLetterReason.MALFORMED && entry instanceof Entry.Valid v) {
            letter = new DeadLetter(queue, Optional.of(v.job()), Map.of(), reason.get(), error, attempts, deadAt,
                    trace);
        } else {
            Map<String, String> raw = entry instanceof Entry.Invalid invalid ? invalid.fields() : shown(jobFields);
            letter = new DeadLetter(queue, Optional.empty(), raw, DeadLetterReason.MALFORMED, error, attempts,
                    deadAt, trace);
        }
        return new StoredDeadLetter(DeadLetterId.of(deadId), letter);
    }

    private static Optional<DeadLetterReason> reason(String text) {
        try {
            return Optional.of(DeadLetterReason.valueOf(text));
        } catch (IllegalArgumentException | NullPointerException e) {
            return Optional.empty();
        }
    }

    private static Map<String, String> shown(List<byte[]> rawFields) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 0; i + 1 < rawFields.size(); i += 2) {
            fields.put(Utf8.escaped(rawFields.get(i)), Utf8.escaped(rawFields.get(i + 1)));
        }
        return fields;
    }

    /** The job id of a raw entry without decoding the rest: for scans. */
    static Optional<String> jobIdOf(List<byte[]> rawFields) {
        for (int i = 0; i + 1 < rawFields.size(); i += 2) {
            if (JOB_ID.equals(Utf8.escaped(rawFields.get(i)))) {
                return Optional.of(Utf8.escaped(rawFields.get(i + 1)));
            }
        }
        return Optional.empty();
    }

    private static void add(List<String> fields, String name, String value) {
        fields.add(name);
        fields.add(value);
    }

    private static String quote(String text) {
        return text.length() <= QUOTE_LIMIT ? text : text.substring(0, QUOTE_LIMIT) + "…";
    }
}

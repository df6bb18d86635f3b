package dev.baton.adapters.redis;

import dev.baton.domain.QueueName;

/**
 * The Redis keys of one queue. All share the hash tag {@code {queue}}, so every script touches a single slot.
 */
record QueueKeys(QueueName queue, String groupName) {

    static QueueKeys of(QueueName queue, String groupSuffix) {
        return new QueueKeys(queue, queue.value() + groupSuffix);
    }

    String streamKey() {
        return "baton:{" + queue.value() + "}:stream";
    }

    byte[] stream() {
        return Utf8.bytes(streamKey());
    }

    byte[] delayed() {
        return Utf8.bytes("baton:{" + queue.value() + "}:delayed");
    }

    byte[] dead() {
        return Utf8.bytes("baton:{" + queue.value() + "}:dead");
    }

    byte[] group() {
        return Utf8.bytes(groupName);
    }
}

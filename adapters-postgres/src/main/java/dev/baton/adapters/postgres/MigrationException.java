package dev.baton.adapters.postgres;

/**
 * Why a schema cannot be migrated as its locations and histories stand: a script misnamed, duplicated, changed after
 * it was applied or failing. {@link Migrations} names the schema and the server around the message.
 */
final class MigrationException extends RuntimeException {
    MigrationException(String message) {
        super(message);
    }

    MigrationException(String message, Throwable cause) {
        super(message, cause);
    }
}

/**
 * The demo handlers that {@code baton dev}, {@code worker} and {@code bench} always know, with their tables. They are
 * user code: they may use Jdbi, JDBC and Jackson as any handler would.
 */
package dev.baton.bootstrap.demo;

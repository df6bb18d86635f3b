/**
 * Throwaway Redis and PostgreSQL servers for {@code baton dev} and the tests: child processes on free loopback ports in
 * temporary directories, stopped with the JVM. They never touch a server they did not start.
 */
package dev.baton.bootstrap.local;

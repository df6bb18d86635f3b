/**
 * The configuration: every setting, read from the environment, a properties file, flags or code, and validated once
 * into {@code BatonConfig}. It reads and checks values; it opens no connection and starts no thread. Its messages never
 * show a password.
 */
package dev.baton.bootstrap.config;

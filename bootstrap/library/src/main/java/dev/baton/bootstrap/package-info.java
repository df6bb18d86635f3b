/**
 * The embedding API: {@code Baton} and its {@code BatonBuilder}, what a JVM service uses to enqueue jobs and run
 * workers in-process. It assembles the application and both adapters through {@code bootstrap.wiring}. It holds no
 * container, no command-line parser and no Spring type.
 */
package dev.baton.bootstrap;

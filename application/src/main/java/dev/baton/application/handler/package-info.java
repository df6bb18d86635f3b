/**
 * The handler SPI: {@code JobHandler} is what user code implements to do a job's work, with what it reads ({@code
 * JobContext}) and what it may throw to retry later or never. It depends on the domain and the JDK only, so a module of
 * handlers needs nothing else of Baton.
 */
package dev.baton.application.handler;

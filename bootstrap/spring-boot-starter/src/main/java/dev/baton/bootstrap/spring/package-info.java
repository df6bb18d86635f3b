/**
 * Spring Boot support: auto-configuration, properties, health, and enqueueing in Spring's transaction. This is the one
 * package that names Spring, and nothing else depends on it. It builds Baton through the library's builder, as any host
 * would.
 */
package dev.baton.bootstrap.spring;

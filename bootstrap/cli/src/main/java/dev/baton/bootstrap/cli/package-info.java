/**
 * The {@code baton} command line: one picocli command per subcommand, created by Guice, each building the {@code Baton}
 * its flags describe. Picocli, Guice and the standard streams stay in the CLI's packages.
 */
package dev.baton.bootstrap.cli;

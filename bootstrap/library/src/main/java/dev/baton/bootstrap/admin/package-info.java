/**
 * The admin HTTP server on a small HTTP/1.1 transport of its own ({@link dev.baton.bootstrap.admin.HttpFront}): its
 * routes, the endpoint groups behind them, access control and the dashboard's files. The endpoints reach Baton through
 * its use cases, never through adapters or outbound ports. Every change is a {@code POST} and passes access control.
 */
package dev.baton.bootstrap.admin;

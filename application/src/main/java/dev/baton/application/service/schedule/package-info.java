/**
 * The scheduler: a loop whose every pass fires the due times of its schedules through {@code ScheduleFires}, and the
 * query that lists schedules. It follows the rules of the services: ports in, no wall clock, no framework.
 */
package dev.baton.application.service.schedule;

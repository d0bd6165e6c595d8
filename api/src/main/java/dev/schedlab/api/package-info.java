/**
 * The schedlab API: the stable contract for scheduling classes, idle policies, preemption models,
 * hook points and plugins. Depends on the JDK and PF4J's marker types only.
 */
package dev.schedlab.api;

/** schedlab API: plugin types. */
package dev.schedlab.api.plugin;

/** schedlab API: hook types. */
package dev.schedlab.api.hook;

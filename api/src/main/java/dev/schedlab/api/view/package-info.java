/** schedlab API: view types. */
package dev.schedlab.api.view;

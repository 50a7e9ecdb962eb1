// libdbus-1, loaded when MPRIS starts (see LazyLibraries.h).
#include "LazyLibraries.h"
#include <LazyLoader.h>

#include <dbus/dbus.h>

// Every libdbus function abplayer calls: F(return type, name, parameters, arguments) or
// V(name, parameters, arguments) for the ones returning void. The compiler checks each against
// libdbus's own declaration.
#define ABP_DBUS_FUNCTIONS(F, V) \
    V(dbus_error_init, (DBusError *error), (error)) \
    V(dbus_error_free, (DBusError *error), (error)) \
    F(dbus_bool_t, dbus_error_is_set, (const DBusError *error), (error)) \
    F(DBusConnection *, dbus_bus_get_private, (DBusBusType type, DBusError *error), (type, error)) \
    F(int, dbus_bus_request_name, (DBusConnection *connection, const char *name, unsigned int flags, DBusError *error), \
      (connection, name, flags, error)) \
    V(dbus_connection_set_exit_on_disconnect, (DBusConnection *connection, dbus_bool_t exit_on_disconnect), \
      (connection, exit_on_disconnect)) \
    V(dbus_connection_unref, (DBusConnection *connection), (connection)) \
    V(dbus_connection_close, (DBusConnection *connection), (connection)) \
    F(dbus_bool_t, dbus_connection_send, (DBusConnection *connection, DBusMessage *message, dbus_uint32_t *serial), \
      (connection, message, serial)) \
    F(dbus_bool_t, dbus_connection_read_write, (DBusConnection *connection, int timeout_milliseconds), \
      (connection, timeout_milliseconds)) \
    F(DBusMessage *, dbus_connection_pop_message, (DBusConnection *connection), (connection)) \
    F(dbus_bool_t, dbus_connection_get_unix_fd, (DBusConnection *connection, int *fd), (connection, fd)) \
    F(dbus_bool_t, dbus_connection_get_is_connected, (DBusConnection *connection), (connection)) \
    V(dbus_connection_flush, (DBusConnection *connection), (connection)) \
    F(DBusMessage *, dbus_message_ref, (DBusMessage *message), (message)) \
    V(dbus_message_unref, (DBusMessage *message), (message)) \
    F(DBusMessage *, dbus_message_new_signal, (const char *path, const char *iface, const char *name), \
      (path, iface, name)) \
    F(DBusMessage *, dbus_message_new_method_return, (DBusMessage *method_call), (method_call)) \
    F(DBusMessage *, dbus_message_new_error, (DBusMessage *reply_to, const char *error_name, const char *error_message), \
      (reply_to, error_name, error_message)) \
    F(int, dbus_message_get_type, (DBusMessage *message), (message)) \
    F(const char *, dbus_message_get_path, (DBusMessage *message), (message)) \
    F(dbus_bool_t, dbus_message_get_no_reply, (DBusMessage *message), (message)) \
    F(const char *, dbus_message_get_member, (DBusMessage *message), (message)) \
    F(const char *, dbus_message_get_interface, (DBusMessage *message), (message)) \
    F(dbus_bool_t, dbus_message_iter_init, (DBusMessage *message, DBusMessageIter *iter), (message, iter)) \
    V(dbus_message_iter_init_append, (DBusMessage *message, DBusMessageIter *iter), (message, iter)) \
    F(dbus_bool_t, dbus_message_iter_next, (DBusMessageIter *iter), (iter)) \
    F(int, dbus_message_iter_get_arg_type, (DBusMessageIter *iter), (iter)) \
    V(dbus_message_iter_recurse, (DBusMessageIter *iter, DBusMessageIter *sub), (iter, sub)) \
    V(dbus_message_iter_get_basic, (DBusMessageIter *iter, void *value), (iter, value)) \
    F(dbus_bool_t, dbus_message_iter_append_basic, (DBusMessageIter *iter, int type, const void *value), \
      (iter, type, value)) \
    F(dbus_bool_t, dbus_message_iter_open_container, \
      (DBusMessageIter *iter, int type, const char *contained_signature, DBusMessageIter *sub), \
      (iter, type, contained_signature, sub)) \
    F(dbus_bool_t, dbus_message_iter_close_container, (DBusMessageIter *iter, DBusMessageIter *sub), (iter, sub))

ABP_DBUS_FUNCTIONS(ABP_LAZY_POINTER, ABP_LAZY_POINTER_VOID)

static const abp_lazy_symbol symbols[] = {ABP_DBUS_FUNCTIONS(ABP_LAZY_ENTRY, ABP_LAZY_ENTRY_VOID)};
static bool load(char *error, size_t error_size) {
    return abp_lazy_open("libdbus-1.so.3", symbols, ABP_LAZY_COUNT(symbols), error, error_size);
}

static abp_lazy_state state = ABP_LAZY_STATE_INIT;
bool abp_dbus_load(void) { return abp_lazy_once(&state, load); }
const char *abp_dbus_load_error(void) { return abp_lazy_error(&state, load); }

ABP_DBUS_FUNCTIONS(ABP_LAZY_FORWARD, ABP_LAZY_FORWARD_VOID)

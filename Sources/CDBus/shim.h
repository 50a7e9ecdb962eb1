// libdbus-1, the reference D-Bus client library, for MPRIS on the session bus.
#include <dbus/dbus.h>
#include <sys/eventfd.h>

// The type codes are cast macros ((int) 's') that Swift cannot import.
static inline int abp_dbus_type_string(void) { return DBUS_TYPE_STRING; }
static inline int abp_dbus_type_object_path(void) { return DBUS_TYPE_OBJECT_PATH; }
static inline int abp_dbus_type_boolean(void) { return DBUS_TYPE_BOOLEAN; }
static inline int abp_dbus_type_double(void) { return DBUS_TYPE_DOUBLE; }
static inline int abp_dbus_type_int64(void) { return DBUS_TYPE_INT64; }
static inline int abp_dbus_type_int32(void) { return DBUS_TYPE_INT32; }
static inline int abp_dbus_type_uint32(void) { return DBUS_TYPE_UINT32; }
static inline int abp_dbus_type_array(void) { return DBUS_TYPE_ARRAY; }
static inline int abp_dbus_type_variant(void) { return DBUS_TYPE_VARIANT; }
static inline int abp_dbus_type_dict_entry(void) { return DBUS_TYPE_DICT_ENTRY; }
static inline int abp_dbus_type_invalid(void) { return DBUS_TYPE_INVALID; }

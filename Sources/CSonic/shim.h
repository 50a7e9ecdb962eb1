#include <sonic.h>

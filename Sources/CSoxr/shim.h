#include <soxr.h>

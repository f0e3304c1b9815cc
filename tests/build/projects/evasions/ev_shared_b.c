/* the second source */
#include "ev_shared_impl.h"

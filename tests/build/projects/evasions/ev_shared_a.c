#include "ev_shared_impl.h"

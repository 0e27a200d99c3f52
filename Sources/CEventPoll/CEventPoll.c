// SwiftPM needs one source file in a C target; the target is only its header.
#include "CEventPoll.h"

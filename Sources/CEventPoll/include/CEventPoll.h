// The Linux system interfaces the loopback server needs that Swift's Glibc module does not
// export: epoll (readiness of many sockets) and malloc_trim (returning freed body memory).
// Empty elsewhere: Darwin's kqueue comes with the Darwin module.
#ifndef C_EVENT_POLL_H
#define C_EVENT_POLL_H
#if defined(__linux__)
#include <sys/epoll.h>
#include <malloc.h>
#endif
#endif

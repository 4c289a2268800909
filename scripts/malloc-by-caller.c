// scripts/malloc-by-caller.c — a diagnostic preload: live heap blocks grouped by the address
// that allocated them (shared object + offset), written to $MHOOK_OUT.NNN on SIGUSR1 (or when
// the process calls mhook_dump(), found with dlsym). Build: gcc -O2 -shared -fPIC -o mhook.so
// scripts/malloc-by-caller.c -ldl -lpthread; run: MHOOK_OUT=/tmp/d LD_PRELOAD=./mhook.so satdof ...
// docs/PERFORMANCE.md, "Soak", says what it found.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
extern void* __libc_malloc(size_t); extern void __libc_free(void*); extern void* __libc_calloc(size_t,size_t);
extern void* __libc_realloc(void*,size_t); extern void* __libc_memalign(size_t,size_t);
#define CAP (1u<<24)
typedef struct { uintptr_t p; uintptr_t caller; size_t n; } E;
static E* T; static volatile int lk; static __thread int inhook;
static void lock(void){ while(__sync_lock_test_and_set(&lk,1)); } static void unlock(void){ __sync_lock_release(&lk); }
static void init(void){ if(!T){ T=mmap(0,sizeof(E)*CAP,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE,-1,0);} }
static inline uint32_t h(uintptr_t p){ return (uint32_t)((p>>4)*2654435761u) & (CAP-1); }
static void add(void* p,size_t n,uintptr_t c){ if(!p||inhook) return; lock(); init(); uint32_t i=h((uintptr_t)p); while(T[i].p&&T[i].p!=1) i=(i+1)&(CAP-1); T[i].p=(uintptr_t)p;T[i].n=n;T[i].caller=c; unlock(); }
static void del(void* p){ if(!p||!T) return; lock(); uint32_t i=h((uintptr_t)p); while(T[i].p){ if(T[i].p==(uintptr_t)p){T[i].p=1;break;} i=(i+1)&(CAP-1);} unlock(); }
void* malloc(size_t n){ void* r=__libc_malloc(n); add(r,n,(uintptr_t)__builtin_return_address(0)); return r; }
void* calloc(size_t a,size_t b){ void* r=__libc_calloc(a,b); add(r,a*b,(uintptr_t)__builtin_return_address(0)); return r; }
void* realloc(void* p,size_t n){ del(p); void* r=__libc_realloc(p,n); add(r,n,(uintptr_t)__builtin_return_address(0)); return r; }
void free(void* p){ del(p); __libc_free(p); }
void* memalign(size_t a,size_t n){ void* r=__libc_memalign(a,n); add(r,n,(uintptr_t)__builtin_return_address(0)); return r; }
void* aligned_alloc(size_t a,size_t n){ void* r=__libc_memalign(a,n); add(r,n,(uintptr_t)__builtin_return_address(0)); return r; }
int posix_memalign(void** o,size_t a,size_t n){ void* r=__libc_memalign(a,n); if(!r) return 12; *o=r; add(r,n,(uintptr_t)__builtin_return_address(0)); return 0; }
// dump: caller addresses aggregated (top 60 by bytes), resolved by dladdr to object+symbol
typedef struct { uintptr_t c; size_t n; size_t k; } A;
void mhook_dump(void); void mhook_dump(void){ inhook=1; lock();
  static A agg[1<<16]; memset(agg,0,sizeof agg); size_t tot=0;
  for(uint32_t i=0;i<CAP;i++) if(T[i].p>1){ tot+=T[i].n; uint32_t j=(uint32_t)((T[i].caller*2654435761u)>>8)&((1<<16)-1); while(agg[j].c&&agg[j].c!=T[i].caller) j=(j+1)&((1<<16)-1); agg[j].c=T[i].caller; agg[j].n+=T[i].n; agg[j].k++; }
  unlock();
  const char* path=getenv("MHOOK_OUT"); char fn[512]; static int seq; snprintf(fn,sizeof fn,"%s.%03d",path?path:"/tmp/mhook",seq++);
  FILE* f=fopen(fn,"w"); fprintf(f,"total %zu\n",tot);
  for(int round=0;round<80;round++){ int best=-1; for(int j=0;j<(1<<16);j++) if(agg[j].c&&(best<0||agg[j].n>agg[best].n)) best=j; if(best<0) break;
    Dl_info d; memset(&d,0,sizeof d); dladdr((void*)agg[best].c,&d);
    fprintf(f,"%12zu %8zu %s 0x%lx\n",agg[best].n,agg[best].k,d.dli_fname?d.dli_fname:"?",(unsigned long)(agg[best].c-(uintptr_t)d.dli_fbase)); agg[best].c=0; agg[best].n=0; }
    lock(); for(uint32_t i=0;i<CAP;i++) if(T[i].p>1 && T[i].n>=(1<<17)){ Dl_info d; memset(&d,0,sizeof d); dladdr((void*)T[i].caller,&d); fprintf(f,"big %zu off 0x%lx\n",T[i].n,(unsigned long)(T[i].caller-(uintptr_t)d.dli_fbase)); } unlock();
  fclose(f); inhook=0; }
#include <pthread.h>
static volatile int want;
static void onsig(int s){ (void)s; want=1; }
static void* poller(void* a){ (void)a; for(;;){ if(want){ want=0; mhook_dump(); } usleep(2000);} return 0; }
__attribute__((constructor)) static void ctor(void){ if(getenv("MHOOK_OUT")){ signal(SIGUSR1,onsig); pthread_t t; inhook=1; pthread_create(&t,0,poller,0); inhook=0; } }

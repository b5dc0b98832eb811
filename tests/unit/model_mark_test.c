/* tools/common/model_mark.h: the marks' bytes are the nopl the plugin
 * looks for, and executing them does nothing (on x86-64 hosts they run). */
#include <string.h>

#include "model_mark.h"
#include "unit.h"

int main(void)
{
	static const unsigned char start[] = {KRP_MODEL_MARK_START_BYTES},
				   stop[] = {KRP_MODEL_MARK_STOP_BYTES};
	static const unsigned char nopl_rax_disp32[] = {0x0f, 0x1f, 0x80};
	unsigned long d1 = 0, d2 = 0;
	volatile int x = 1;

	CHECK("marks are 7 bytes", sizeof(start) == 7 && sizeof(stop) == 7);
	CHECK("marks are nopl disp32(%rax)",
	      memcmp(start, nopl_rax_disp32, 3) == 0 && memcmp(stop, nopl_rax_disp32, 3) == 0);
	for (int i = 6; i >= 3; i--) {
		d1 = d1 << 8 | start[i];
		d2 = d2 << 8 | stop[i];
	}
	CHECK("start's displacement is 0x4b524d01", d1 == 0x4b524d01UL);
	CHECK("stop's displacement is 0x4b524d02", d2 == 0x4b524d02UL);
	CHECK("the asm strings spell the lists",
	      strcmp(KRP_MODEL_MARK_START_ASM, ".byte 0x0f, 0x1f, 0x80, 0x01, 0x4d, 0x52, 0x4b") ==
		      0 &&
		  strcmp(KRP_MODEL_MARK_STOP_ASM,
			 ".byte 0x0f, 0x1f, 0x80, 0x02, 0x4d, 0x52, 0x4b") == 0);
	CHECK("krepro-mark's words: start and stop",
	      krp_model_mark_word("start") == KRP_MODEL_MARK_START &&
		  krp_model_mark_word("stop") == KRP_MODEL_MARK_STOP);
	CHECK("krepro-mark's words: nothing else",
	      !krp_model_mark_word(NULL) && !krp_model_mark_word("") &&
		  !krp_model_mark_word("sta") && !krp_model_mark_word("stopp") &&
		  !krp_model_mark_word("START") && !krp_model_mark_word("start "));
	krp_model_mark(1);
	x++;
	krp_model_mark(0);
	CHECK("executing the marks is a no-op", x == 2);
	UNIT_EXIT();
}

/* krepro-mark: the memory model's window marks for a shell script
 * (docs/MEMORY-MODEL.md, "The window").
 *
 *   krepro-mark start     the counted window starts here
 *   krepro-mark stop      it stops here
 *
 * A suite's run.sh brackets its measured command with the two, when its
 * program does not mark its own window (will-it-scale and membench do, in
 * C).  Each executes one mark of tools/common/model_mark.h, a no-op
 * instruction: without the kit's QEMU plugin nothing happens.  The window
 * is global (every vCPU counts while it is open), so a start and a stop
 * that run on different vCPUs make one window. */
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "model_mark.h"

#define PROG "krepro-mark"

int main(int argc, char **argv)
{
	int kind = argc == 2 ? krp_model_mark_word(argv[1]) : 0;

	if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		fputs("Usage: " PROG " start|stop\n"
		      "Marks where the memory model's counted window starts or stops (a\n"
		      "no-op instruction the kit's QEMU plugin looks for; nothing without it).\n",
		      stdout);
		return 0;
	}
	if (argc != 2)
		krp_die_usage(PROG, "expected one word, start or stop");
	if (!kind)
		krp_die_usage(PROG, "unknown word '%s': expected start or stop", argv[1]);
	krp_model_mark(kind == KRP_MODEL_MARK_START);
	return 0;
}

import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A small filesystem of the campaign's own for SQLite's data directory (a tmpfs mount), which a
 * filler file can fill to the last block and free again. Mounting needs root (CAP_SYS_ADMIN);
 * where the sandbox refuses it, `mount` returns the reason and the disk-full phase is skipped.
 */
export class SmallDisk {
  private filler: string;

  private constructor(readonly dir: string) {
    this.filler = join(dir, 'filler');
  }

  /** Mounts a tmpfs of `sizeMb` on `dir`; a string says why it could not. */
  static mount(dir: string, sizeMb: number): SmallDisk | string {
    mkdirSync(dir, { recursive: true });
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0700`, 'tmpfs', dir], {
        stdio: 'pipe',
      });
    } catch (err) {
      const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
      return `mount -t tmpfs failed: ${stderr || (err as Error).message}`;
    }
    return new SmallDisk(dir);
  }

  /** Bytes still free. */
  free(): number {
    const s = statfsSync(this.dir);
    return s.bavail * s.bsize;
  }

  /** Writes a file until the filesystem refuses the smallest block; resolves the bytes it took. */
  fill(): number {
    const fd = openSync(this.filler, 'a');
    let written = 0;
    try {
      for (const size of [1 << 20, 1 << 16, 1 << 12, 512]) {
        const block = Buffer.alloc(size);
        for (;;) {
          try {
            written += writeSync(fd, block);
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
            throw err;
          }
        }
      }
    } finally {
      closeSync(fd);
    }
    return written;
  }

  /** Deletes the filler: the space is back at once. */
  release(): void {
    rmSync(this.filler, { force: true });
  }

  unmount(): void {
    try {
      execFileSync('umount', ['-l', this.dir], { stdio: 'pipe' });
    } catch {
      // Already gone.
    }
  }
}

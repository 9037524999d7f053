"""Command-line entry point: parses arguments, then opens the client (or a headless host)."""

from __future__ import annotations

import argparse
import os
import sys


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="main.py", description="Tee Table: peg races and Trash.")
    p.add_argument("--size", default="1280x720", help="window size WxH (default 1280x720)")
    p.add_argument("--fullscreen", action="store_true", help="start fullscreen")
    p.add_argument("--frames", type=int, default=0, help=argparse.SUPPRESS)
    return p


def parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--size wants WIDTHxHEIGHT, not {text!r}") from None
    if not (320 <= w <= 10000 and 240 <= h <= 10000):
        raise argparse.ArgumentTypeError(f"--size {text} is out of range (320x240 and up)")
    return w, h


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        size = parse_size(args.size)
    except argparse.ArgumentTypeError as e:
        parser.error(str(e))
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    pygame.init()
    flags = pygame.RESIZABLE | (pygame.FULLSCREEN if args.fullscreen else 0)
    screen = pygame.display.set_mode(size, flags)
    pygame.display.set_caption("Tee Table")
    font = pygame.font.Font(None, 72)
    clock = pygame.time.Clock()
    frames = 0
    running = True
    while running:
        for ev in pygame.event.get():
            if ev.type == pygame.QUIT or (ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE):
                running = False
        screen.fill((18, 60, 40))
        text = font.render("Tee Table", True, (240, 230, 200))
        screen.blit(text, text.get_rect(center=screen.get_rect().center))
        pygame.display.flip()
        clock.tick(60)
        frames += 1
        if args.frames and frames >= args.frames:
            running = False
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())

import type { AssetEvent } from '../../assets/index.js';
import { buildCommandAnnouncement } from '../../assets/executable.js';

/**
 * The lines a deploy shows for asset events: an image built and pushed, a repository made,
 * and each distinct build command announced once, its repeats only under --verbose.
 * File uploads stay quiet, as before.
 */
export function assetEventNote(note: (line: string) => void, verbose: boolean): (event: AssetEvent) => void {
  return (event) => {
    switch (event.type) {
      case 'build-command':
        if (event.first) note(buildCommandAnnouncement(event));
        else if (verbose)
          note(`Running the build command of asset ${event.assetId} again: ${event.command.join(' ')}`);
        return;
      case 'building':
        note(`Building image asset ${event.displayName ?? event.assetId}`);
        return;
      case 'pushed':
        if (event.publication.action === 'pushed')
          note(
            `Pushed image asset ${event.publication.displayName ?? event.publication.assetId} to ${event.publication.repositoryName}:${event.publication.imageTag}`,
          );
        else if (verbose)
          note(
            `Image asset ${event.publication.displayName ?? event.publication.assetId} is in ${event.publication.repositoryName} already; nothing built or pushed`,
          );
        return;
      case 'repository-created':
        note(
          `Created the image repository ${event.repositoryName} in ${event.region} (no bootstrap had prepared it), tags immutable.`,
        );
        return;
      default:
        return;
    }
  };
}

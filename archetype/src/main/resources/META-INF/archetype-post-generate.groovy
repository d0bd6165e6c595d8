// Keeps the contribution of the chosen variant and removes the other two.
import java.nio.file.Files
import java.nio.file.Paths

def props = request.properties
def variant = props.getProperty('variant')
def kept = ['idle-policy': 'IdlePolicy', 'scheduling-class': 'SchedulingClass', 'hook-override': 'Hook'][variant]
def dir = Paths.get(request.outputDirectory, request.artifactId, 'src', 'main', 'java',
    *props.getProperty('package').split('\\.'))
['IdlePolicy', 'SchedulingClass', 'Hook'].findAll { it != kept }.each {
  Files.deleteIfExists(dir.resolve(props.getProperty('className') + it + '.java'))
}
